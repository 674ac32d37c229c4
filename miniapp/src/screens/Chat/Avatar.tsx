import { photoUrl } from '../../lib/photos.ts';

/** A round photo, or the first letter of the name when there is none. Decorative: the name is beside it. */
export function Avatar({ name, photo, size = 48 }: { name: string; photo: string | null; size?: number }) {
  return photo ? (
    <img
      className="chat-avatar"
      src={photoUrl(photo, 'thumb')}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
    />
  ) : (
    <span className="chat-avatar chat-avatar-letter" aria-hidden="true" style={{ width: size, height: size }}>
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}
