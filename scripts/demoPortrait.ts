/**
 * Demo portraits for `npm run demo`: a flat illustration of a person (hair, face, eyes, shoulders and
 * clothes on a background) drawn as SVG from a handful of traits, so three hundred demo people read as
 * people at a glance and no two look alike. Everything is local: no network, no models, only `sharp`
 * (librsvg) to rasterise.
 */
import sharp from 'sharp';
import {
  derivedImages,
  photoHeight,
  photoWidth,
  type ProcessedPhoto,
} from '../server/features/photos/photoPipeline.ts';

type Sex = 'Male' | 'Female';

/** Light to deep: the whole range, so a swipe through the demo is not all one complexion. */
export const skinTones = ['#f7dcc9', '#f0c7a8', '#e4b08c', '#d39a6f', '#bb7f55', '#9c6440', '#7b4a2d', '#5a3420'];
const hairColours = ['#1d1612', '#2f2117', '#4a3020', '#6b4226', '#8a4b24', '#a8622f', '#c99a5b', '#e0c68f'];
const greyHair = '#8f8f8f';
/** Rare dyed hair: a dating app without a single pink head would look staged. */
const dyedHair = ['#c96a9a', '#5f7fc4', '#7f5aa8'];
const eyeColours = ['#4a2e17', '#2b1d12', '#6e5a26', '#4d7a3c', '#3f6f9e', '#6d7d88'];
const clothColours = [
  '#2d3e50',
  '#c0392b',
  '#27ae60',
  '#f1c40f',
  '#8e44ad',
  '#e67e22',
  '#ecf0f1',
  '#1abc9c',
  '#34495e',
  '#d35400',
  '#7f8c8d',
  '#e84393',
  '#0984e3',
  '#111111',
  '#b8860b',
  '#6c5ce7',
];

const femaleHair = ['long', 'wavy', 'bob', 'bun', 'ponytail', 'curly', 'pixie', 'long'] as const;
const maleHair = ['short', 'sidePart', 'buzz', 'curlyTop', 'quiff', 'bald', 'short', 'manBun'] as const;
type HairStyle = (typeof femaleHair)[number] | (typeof maleHair)[number];
const backgrounds = ['studio', 'sunset', 'city', 'park', 'sea', 'wall'] as const;
type Background = (typeof backgrounds)[number];
const necklines = ['crew', 'vneck', 'collar', 'hoodie', 'stripes', 'crew', 'vneck', 'collar'] as const;
type Neckline = (typeof necklines)[number];

/** What stays the same in every photo of one person. */
export interface PersonLook {
  sex: Sex;
  skin: string;
  hair: string;
  hairStyle: HairStyle;
  eyes: string;
  /** 0.9..1.1: a rounder or a longer face. */
  faceWidth: number;
  beard: 'none' | 'stubble' | 'full';
  glasses: 'none' | 'round' | 'square';
  freckles: boolean;
  earrings: boolean;
}

/** What changes from one photo of a person to the next. */
interface Shot {
  background: Background;
  backgroundHue: number;
  cloth: string;
  neckline: Neckline;
  /** Degrees the head leans. */
  tilt: number;
  /** Framing: how close and where the person stands. */
  scale: number;
  dx: number;
  dy: number;
  smile: 'soft' | 'open';
}

export function randomLook(sex: Sex, age: number, next: () => number): PersonLook {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const hairStyle = pick(sex === 'Female' ? femaleHair : maleHair);
  const beardRoll = next();
  return {
    sex,
    skin: pick(skinTones),
    // Grey only from forty; dyed now and then.
    hair: age >= 40 && next() < 0.35 ? greyHair : next() < 0.06 ? pick(dyedHair) : pick(hairColours),
    hairStyle,
    eyes: pick(eyeColours),
    faceWidth: 0.9 + next() * 0.2,
    beard: sex === 'Male' ? (beardRoll < 0.3 ? 'full' : beardRoll < 0.55 ? 'stubble' : 'none') : 'none',
    glasses: next() < 0.22 ? pick(['round', 'square'] as const) : 'none',
    freckles: next() < 0.12,
    earrings: sex === 'Female' && next() < 0.45,
  };
}

function randomShot(next: () => number): Shot {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  return {
    background: pick(backgrounds),
    backgroundHue: Math.floor(next() * 360),
    cloth: pick(clothColours),
    neckline: pick(necklines),
    tilt: (next() - 0.5) * 12,
    scale: 0.92 + next() * 0.22,
    dx: (next() - 0.5) * 80,
    dy: (next() - 0.5) * 50,
    smile: next() < 0.5 ? 'soft' : 'open',
  };
}

/** A colour `amount` (-1..1) darker or lighter, for shadows and highlights in the same hue. */
function shade(hex: string, amount: number): string {
  const value = Number.parseInt(hex.slice(1), 16);
  const channel = (shift: number) => {
    const c = (value >> shift) & 0xff;
    const out = amount < 0 ? c * (1 + amount) : c + (255 - c) * amount;
    return Math.round(Math.min(255, Math.max(0, out)))
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(16)}${channel(8)}${channel(0)}`;
}

function backgroundSvg(shot: Shot, next: () => number): string {
  const h = shot.backgroundHue;
  switch (shot.background) {
    case 'studio':
      return `<defs><radialGradient id="bg" cx="0.5" cy="0.35" r="0.8"><stop offset="0" stop-color="hsl(${h},35%,82%)"/><stop offset="1" stop-color="hsl(${h},30%,52%)"/></radialGradient></defs>
        <rect width="640" height="852" fill="url(#bg)"/>`;
    case 'sunset':
      return `<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#3b3b8f"/><stop offset="0.55" stop-color="#e9767a"/><stop offset="1" stop-color="#f7c56b"/></linearGradient></defs>
        <rect width="640" height="852" fill="url(#bg)"/><circle cx="${120 + Math.floor(next() * 400)}" cy="600" r="90" fill="#ffe2a0" opacity="0.8"/>`;
    case 'city': {
      const lights = Array.from({ length: 14 }, () => {
        const r = 18 + next() * 40;
        return `<circle cx="${(next() * 640).toFixed(0)}" cy="${(next() * 560).toFixed(0)}" r="${r.toFixed(0)}" fill="hsl(${(h + next() * 80).toFixed(0)},80%,70%)" opacity="${(0.25 + next() * 0.35).toFixed(2)}"/>`;
      }).join('');
      return `<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#141a33"/><stop offset="1" stop-color="#3a2a4d"/></linearGradient></defs>
        <rect width="640" height="852" fill="url(#bg)"/>${lights}`;
    }
    case 'park': {
      const trees = Array.from({ length: 7 }, () => {
        const r = 70 + next() * 80;
        return `<circle cx="${(next() * 640).toFixed(0)}" cy="${(380 + next() * 140).toFixed(0)}" r="${r.toFixed(0)}" fill="hsl(${(95 + next() * 40).toFixed(0)},40%,${(32 + next() * 18).toFixed(0)}%)" opacity="0.9"/>`;
      }).join('');
      return `<rect width="640" height="852" fill="#bfe3f5"/>${trees}<rect y="560" width="640" height="292" fill="#6a9a4a"/>`;
    }
    case 'sea':
      return `<rect width="640" height="852" fill="#a9d8f0"/><rect y="470" width="640" height="180" fill="hsl(${195 + (h % 25)},60%,45%)"/><rect y="650" width="640" height="202" fill="#e8d3a3"/>
        <circle cx="${80 + Math.floor(next() * 480)}" cy="130" r="46" fill="#fff6c8" opacity="0.9"/>`;
    case 'wall':
      return `<rect width="640" height="852" fill="hsl(${h},25%,72%)"/>
        <rect x="${60 + Math.floor(next() * 360)}" y="90" width="170" height="220" fill="hsl(${(h + 180) % 360},35%,55%)" stroke="#f4efe6" stroke-width="12"/>
        <rect y="700" width="640" height="152" fill="hsl(${h},20%,60%)"/>`;
  }
}

/** Hair that falls behind the head and shoulders (drawn first). */
function backHair(look: PersonLook): string {
  const c = look.hair;
  switch (look.hairStyle) {
    case 'long':
      return `<path d="M188 330 C176 200 250 168 320 168 C390 168 464 200 452 330 L478 650 C420 690 220 690 162 650 Z" fill="${c}"/>`;
    case 'wavy':
      return `<path d="M186 330 C170 200 250 166 320 166 C390 166 470 200 454 330 C470 420 440 460 476 540 C500 600 460 640 430 660 L210 660 C180 640 140 600 164 540 C200 460 170 420 186 330 Z" fill="${c}"/>`;
    case 'curly': {
      const curls = [];
      for (let a = 0; a < 360; a += 24) {
        const rad = (a * Math.PI) / 180;
        curls.push(
          `<circle cx="${(320 + Math.cos(rad) * 150).toFixed(0)}" cy="${(380 + Math.sin(rad) * 175).toFixed(0)}" r="62" fill="${c}"/>`,
        );
      }
      return `<g>${curls.join('')}</g>`;
    }
    case 'bob':
      return `<path d="M184 330 C172 200 250 170 320 170 C390 170 468 200 456 330 L466 520 C420 540 220 540 174 520 Z" fill="${c}"/>`;
    case 'ponytail':
      return `<path d="M400 230 C490 250 500 400 470 560 C460 600 430 600 436 540 C450 420 440 320 380 260 Z" fill="${c}"/>`;
    case 'bun':
      return `<circle cx="320" cy="178" r="58" fill="${c}"/>`;
    case 'manBun':
      return `<circle cx="320" cy="186" r="40" fill="${c}"/>`;
    default:
      return '';
  }
}

/** Hair over the top of the head (drawn after the face). */
function frontHair(look: PersonLook): string {
  const c = look.hair;
  const hi = shade(c, 0.18);
  switch (look.hairStyle) {
    case 'long':
    case 'wavy':
    case 'bob':
      return `<path d="M196 372 C184 226 252 186 320 186 C392 186 458 226 444 372 C432 300 392 262 340 250 C300 282 240 300 196 372 Z" fill="${c}"/>
        <path d="M300 200 C360 196 410 220 430 262" stroke="${hi}" stroke-width="8" fill="none" stroke-linecap="round" opacity="0.6"/>`;
    case 'ponytail':
    case 'bun':
      return `<path d="M198 350 C190 224 252 190 320 190 C390 190 452 224 442 350 C420 280 380 250 320 248 C262 250 222 280 198 350 Z" fill="${c}"/>
        <path d="M270 210 C320 198 380 206 420 248" stroke="${hi}" stroke-width="7" fill="none" stroke-linecap="round" opacity="0.6"/>`;
    case 'curly': {
      const curls = [];
      for (let x = 210; x <= 430; x += 36)
        curls.push(
          `<circle cx="${x}" cy="${250 - Math.round(Math.sin(((x - 210) / 220) * Math.PI) * 40)}" r="40" fill="${c}"/>`,
        );
      return curls.join('');
    }
    case 'pixie':
      return `<path d="M194 340 C184 214 256 180 324 180 C396 180 456 222 446 336 C430 290 410 270 380 262 C330 300 250 280 220 300 C206 312 198 326 194 340 Z" fill="${c}"/>`;
    case 'short':
      return `<path d="M200 330 C196 218 258 192 322 192 C390 192 448 220 440 330 C430 280 404 262 320 258 C244 258 212 280 200 330 Z" fill="${c}"/>`;
    case 'sidePart':
      return `<path d="M200 334 C192 214 262 184 330 186 C400 188 452 224 440 334 C432 290 410 262 360 252 L350 232 C300 256 236 262 200 334 Z" fill="${c}"/>
        <path d="M352 236 C380 226 410 236 428 262" stroke="${hi}" stroke-width="6" fill="none" opacity="0.6"/>`;
    case 'buzz':
      return `<path d="M204 320 C202 220 260 200 320 200 C382 200 440 222 436 320 C424 280 392 264 320 262 C250 262 216 280 204 320 Z" fill="${c}" opacity="0.85"/>`;
    case 'curlyTop': {
      const curls = [];
      for (let x = 222; x <= 418; x += 28)
        curls.push(
          `<circle cx="${x}" cy="${228 - Math.round(Math.sin(((x - 222) / 196) * Math.PI) * 26)}" r="30" fill="${c}"/>`,
        );
      return `<path d="M204 320 C202 240 250 222 320 222 C392 222 438 240 436 320 C424 286 392 270 320 268 C250 270 216 286 204 320 Z" fill="${c}"/>${curls.join('')}`;
    }
    case 'quiff':
      return `<path d="M200 326 C192 226 240 176 330 166 C420 158 456 210 440 326 C428 280 400 262 320 260 C250 260 214 280 200 326 Z" fill="${c}"/>
        <path d="M250 200 C300 170 380 164 420 200" stroke="${hi}" stroke-width="8" fill="none" opacity="0.5"/>`;
    case 'manBun':
      return `<path d="M200 334 C194 222 256 196 320 196 C388 196 448 222 440 334 C424 276 392 252 320 250 C250 252 214 276 200 334 Z" fill="${c}"/>`;
    case 'bald':
      return `<path d="M204 350 C200 300 206 280 212 270 L222 340 Z M436 350 C440 300 434 280 428 270 L418 340 Z" fill="${c}" opacity="0.8"/>`;
  }
}

function clothes(shot: Shot, look: PersonLook): string {
  const c = shot.cloth;
  const dark = shade(c, -0.25);
  const torso = `M34 852 C44 700 130 628 246 606 L394 606 C510 628 596 700 606 852 Z`;
  switch (shot.neckline) {
    case 'crew':
      return `<path d="${torso}" fill="${c}"/><path d="M262 604 C280 650 360 650 378 604" stroke="${dark}" stroke-width="12" fill="none"/>`;
    case 'vneck':
      return `<path d="${torso}" fill="${c}"/><path d="M262 604 L320 700 L378 604 Z" fill="${look.skin}"/><path d="M258 600 L320 706 L382 600" stroke="${dark}" stroke-width="9" fill="none"/>`;
    case 'collar':
      return `<path d="${torso}" fill="${c}"/><path d="M270 604 L320 680 L370 604 Z" fill="${look.skin}"/>
        <path d="M256 596 L320 684 L290 720 L236 630 Z M384 596 L320 684 L350 720 L404 630 Z" fill="${shade(c, 0.75)}"/><line x1="320" y1="690" x2="320" y2="852" stroke="${dark}" stroke-width="4"/>`;
    case 'hoodie':
      return `<path d="M206 640 C220 570 420 570 434 640 L410 680 L230 680 Z" fill="${dark}"/><path d="${torso}" fill="${c}"/>
        <path d="M250 610 C270 680 370 680 390 610" stroke="${dark}" stroke-width="14" fill="none"/><path d="M290 668 L286 760 M350 668 L354 760" stroke="#f2f2f2" stroke-width="6" stroke-linecap="round"/>`;
    case 'stripes':
      return `<defs><pattern id="st" width="40" height="40" patternUnits="userSpaceOnUse"><rect width="40" height="40" fill="${c}"/><rect y="24" width="40" height="14" fill="${shade(c, 0.7)}"/></pattern></defs>
        <path d="${torso}" fill="url(#st)"/><path d="M262 604 C280 650 360 650 378 604" stroke="${dark}" stroke-width="10" fill="none"/>`;
  }
}

function face(look: PersonLook, shot: Shot): string {
  const skin = look.skin;
  const skinDark = shade(skin, -0.18);
  const brow = shade(look.hair === greyHair ? '#5a5a5a' : look.hair, -0.15);
  const female = look.sex === 'Female';
  const eye = (
    x: number,
  ) => `<ellipse cx="${x}" cy="372" rx="21" ry="12" fill="#fbfbfb"/><circle cx="${x}" cy="373" r="10.5" fill="${look.eyes}"/>
    <circle cx="${x}" cy="373" r="5" fill="#111"/><circle cx="${x + 4}" cy="369" r="3" fill="#fff"/>
    <path d="M${x - 23} 370 Q${x} 352 ${x + 23} 370" stroke="#2a1a12" stroke-width="${female ? 5 : 3.5}" fill="none" stroke-linecap="round"/>`;
  const lips = female ? '#c2575f' : shade(skin, -0.35);
  const mouth =
    shot.smile === 'open'
      ? `<path d="M284 452 Q320 500 356 452 Z" fill="#7a2630"/><path d="M290 454 Q320 468 350 454 L348 460 Q320 472 292 460 Z" fill="#fff"/><path d="M284 452 Q320 500 356 452" stroke="${lips}" stroke-width="5" fill="none"/>`
      : `<path d="M290 456 Q320 478 350 456" stroke="${lips}" stroke-width="${female ? 7 : 5}" fill="none" stroke-linecap="round"/>`;
  const freckles = look.freckles
    ? Array.from(
        { length: 10 },
        (_, i) =>
          `<circle cx="${(i < 5 ? 258 : 346) + (i % 5) * 9}" cy="${404 + ((i * 7) % 12)}" r="2.4" fill="${shade(skin, -0.4)}" opacity="0.7"/>`,
      ).join('')
    : '';
  const beard =
    look.beard === 'none'
      ? ''
      : `<path d="M206 392 C208 502 262 550 320 550 C378 550 432 502 434 392 C426 446 404 452 384 446 C362 438 342 440 320 440 C298 440 278 438 256 446 C236 452 214 446 206 392 Z M296 458 Q320 474 344 458 Q320 500 296 458 Z" fill-rule="evenodd" fill="${look.hair}" opacity="${look.beard === 'full' ? 0.95 : 0.35}"/>`;
  const glasses =
    look.glasses === 'none'
      ? ''
      : look.glasses === 'round'
        ? `<g stroke="#222" stroke-width="5" fill="#ffffff" fill-opacity="0.12"><circle cx="272" cy="373" r="32"/><circle cx="368" cy="373" r="32"/></g><path d="M304 370 Q320 360 336 370" stroke="#222" stroke-width="5" fill="none"/>`
        : `<g stroke="#1b1b1b" stroke-width="6" fill="#ffffff" fill-opacity="0.12"><rect x="234" y="350" width="74" height="48" rx="10"/><rect x="332" y="350" width="74" height="48" rx="10"/></g><path d="M308 368 L332 368" stroke="#1b1b1b" stroke-width="6"/>`;
  const earrings = look.earrings
    ? `<circle cx="206" cy="420" r="8" fill="#e8c14a"/><circle cx="434" cy="420" r="8" fill="#e8c14a"/>`
    : '';
  return `<ellipse cx="204" cy="384" rx="17" ry="30" fill="${skinDark}"/><ellipse cx="436" cy="384" rx="17" ry="30" fill="${skinDark}"/>${earrings}
    <ellipse cx="320" cy="366" rx="${(118 * look.faceWidth).toFixed(1)}" ry="150" fill="${skin}"/>
    <ellipse cx="320" cy="300" rx="80" ry="40" fill="#fff" opacity="0.08"/>
    ${female ? `<circle cx="256" cy="420" r="22" fill="#e8707a" opacity="0.18"/><circle cx="384" cy="420" r="22" fill="#e8707a" opacity="0.18"/>` : ''}
    ${freckles}${eye(272)}${eye(368)}
    <path d="M244 ${female ? 334 : 338} Q272 ${female ? 318 : 326} 300 ${female ? 332 : 334}" stroke="${brow}" stroke-width="${female ? 6 : 10}" fill="none" stroke-linecap="round"/>
    <path d="M340 ${female ? 332 : 334} Q368 ${female ? 318 : 326} 396 ${female ? 334 : 338}" stroke="${brow}" stroke-width="${female ? 6 : 10}" fill="none" stroke-linecap="round"/>
    <path d="M322 380 C316 410 306 424 314 434 Q322 440 334 432" stroke="${shade(skin, -0.3)}" stroke-width="4" fill="none" stroke-linecap="round"/>
    ${beard}${mouth}${glasses}`;
}

export function portraitSvg(look: PersonLook, shot: Shot, next: () => number): string {
  const neckShadow = shade(look.skin, -0.22);
  // The person is framed around the base of the neck; the head leans around the same point.
  const frame = `translate(${(320 + shot.dx).toFixed(1)} ${(600 + shot.dy).toFixed(1)}) scale(${shot.scale.toFixed(3)}) translate(-320 -600)`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${photoWidth}" height="${photoHeight}" viewBox="0 0 640 852">
    ${backgroundSvg(shot, next)}
    <g transform="${frame}">
      <g transform="rotate(${shot.tilt.toFixed(1)} 320 560)">${backHair(look)}</g>
      <rect x="272" y="450" width="96" height="180" rx="30" fill="${look.skin}"/>
      <path d="M272 500 C300 540 340 540 368 500 L368 560 C340 580 300 580 272 560 Z" fill="${neckShadow}" opacity="0.7"/>
      ${clothes(shot, look)}
      <g transform="rotate(${shot.tilt.toFixed(1)} 320 560)">${face(look, shot)}${frontHair(look)}</g>
    </g>
  </svg>`;
}

/**
 * `count` photos of one person (the same face and hair; another background, top, pose and smile in each),
 * rasterised at the stored size and processed as an upload is: a 640x852 JPEG without metadata (sharp
 * writes none unless asked), its thumbnail and its blurred copy.
 */
export async function renderPortraits(look: PersonLook, count: number, next: () => number): Promise<ProcessedPhoto[]> {
  const svgs = Array.from({ length: count }, () => portraitSvg(look, randomShot(next), next));
  return Promise.all(
    svgs.map(async (svg) => {
      const photo = await sharp(Buffer.from(svg))
        .resize(photoWidth, photoHeight)
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 82 })
        .toBuffer();
      return { photo, ...(await derivedImages(photo)) };
    }),
  );
}
