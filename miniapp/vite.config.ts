import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { bootLandingPlugin } from './bootLandingPlugin.ts';
import { bootPreloadPlugin } from './bootPreloadPlugin.ts';
import { bootScriptPlugin } from './bootScriptPlugin.ts';
import { compressPlugin } from './compressPlugin.ts';
import { localesPlugin } from './localesPlugin.ts';
import { pwaPlugin } from './pwaPlugin.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');

/**
 * The app lives in miniapp/ but imports the shared contract (server/contract) and the locales (locales/)
 * from the repository root. During `vite dev` the API is the Koa server on :8080 (npm start).
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    react(),
    localesPlugin(path.join(repoRoot, 'locales')),
    pwaPlugin(),
    bootPreloadPlugin(),
    bootScriptPlugin(),
    bootLandingPlugin(path.join(repoRoot, 'locales')),
    compressPlugin(),
  ],
  // The same aliases as tsconfig.json's `paths`: the shared contract and texts without ../../../../.
  resolve: {
    alias: {
      '@contract': path.join(repoRoot, 'server', 'contract'),
      '@locales': path.join(repoRoot, 'locales'),
      // react-i18next's React 17 fallback, never used on React 19 (src/lib/syncExternalStoreShim.ts).
      'use-sync-external-store/shim': path.join(import.meta.dirname, 'src', 'lib', 'syncExternalStoreShim.ts'),
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    modulePreload: { polyfill: false },
    // Routes are lazy chunks, but few files on the first load: each response carries its headers (about
    // 1 kB with the CSP), so a dozen small chunks cost more than the code they hold. Measured by
    // bench/frontend.ts (first-load JavaScript on the wire).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The entry: everything main.tsx imports (React, the router, i18next, the frame), and small helpers most screens share (with the
            // password rule, 60 bytes the sign-up form and the contract's schemas both read: in neither
            // chunk, or the form would fetch the schemas or the schemas the form; likewise the deck's, the
            // chat's and the live events' zod-free constants, which the deck's first load reads). No module
            // that declares a schema (lib/filters.ts builds the deck's from the contract): a group takes a
            // captured module's imports along, and zod would come into the entry with it. The bundler's runtime
            // stays a file of its own (rolldown-runtime-*.js): a test for its `\0rolldown/runtime.js` here
            // captured nothing.
            {
              name: 'index',
              test: /miniapp[\\/]src[\\/]main\.tsx$|src[\\/]api[\\/]queries[\\/]config\.ts$|src[\\/]lib[\\/](photos|constants)\.ts$|src[\\/]components[\\/]LanguageSwitcher\.tsx$|server[\\/]contract[\\/](passwordRule|deckRules|chatRules|eventTypes)\.ts$/,
              priority: 5,
            },
            // The query cache (TanStack Query) and its provider: with the first screen that reads through it
            // (components/lazyScreen.ts), never on / or /login, whose screens do not, nor with the deck's
            // first card (it comes once the page has settled, with the live connection).
            {
              name: 'queries',
              test: /node_modules[\\/]@tanstack[\\/]|src[\\/]api[\\/](queryClient\.ts|QueryScope\.tsx)$/,
              priority: 4,
            },
            // Loaded right after the first paint (the session check): the API client and the session's calls,
            // without zod: their answers are checked against the contract after the first load
            // (api/contractCheck.ts). A screen's own calls travel with the screen (a group takes a captured
            // module's imports along), so / and /login do not carry the deck's.
            {
              name: 'api',
              test: /src[\\/]api[\\/](client|contractCheck|queries[\\/]session)\.ts$/,
              priority: 2,
            },
            // zod and the contract's schemas, one file for every screen that checks with them at once (its
            // calls' answers, its forms): loaded with such a screen, or after the first load to check the
            // answers the first screen used (api/contractCheck.ts). Not the zod-free contract modules the
            // entry and the sign-in form read (a referral code's pattern, the password rule).
            {
              name: 'contract',
              test: /node_modules[\\/]zod[\\/]|server[\\/]contract[\\/](?!referralCode|passwordRule|deckRules|eventTypes|chatRules)[^\\/]+\.ts$/,
              priority: 4,
            },
            // The sign-in form with the Google and Telegram buttons, which the sign-up form reads from here: the
            // sign-up form (with the password rules and the privacy consent) is a chunk of its own, not on
            // /login's first load (issue 41).
            {
              name: 'signIn',
              test: /src[\\/]screens[\\/]Auth[\\/]LoginScreen\.tsx$|src[\\/]components[\\/]ExternalSignIn\.tsx$|src[\\/]platform[\\/]telegramLogin\.ts$/,
              priority: 1,
            },
            // The deck with its card and buttons, and the members' tab bar (the deck is their first screen)
            // (also what /training and a liker's profile use of it), and the calls its first card makes,
            // without TanStack Query (issue 41): the next card, likes and undo, the gender sync. A liker's
            // profile reads the like from here too.
            {
              name: 'search',
              test: /src[\\/]screens[\\/]Search[\\/](?!deckExtras|EmptyDeck|LikeLimitPanel|LikeMessageSheet)|src[\\/]components[\\/](SwipeCard|DeckButtons|TabBar)\.tsx$|src[\\/]lib[\\/]swipeRules\.ts$|node_modules[\\/]react-swipeable[\\/]/,
              priority: 1,
            },
            // The live connection (its stream, the cache it keeps true, the overlay's host, the toasts, the
            // tab bar's counts) and the members' calls it and the deck's extras share (chat, matches,
            // premium): fetched with the query cache, once the deck has settled or with the first screen
            // that reads through the cache (issue 41). Above the deck's extras, which would otherwise take
            // these along (the match overlay reads the chat's calls, the like sheet the subscription).
            {
              name: 'live',
              test: /src[\\/]components[\\/](LiveShell|MessageToasts)\.tsx$|src[\\/]api[\\/](liveCache|liveEvents)\.ts$|src[\\/]api[\\/]queries[\\/](badgeCounts|chat|matches|premium)\.ts$/,
              priority: 0.7,
            },
            // What the deck's extras (below) share with other screens: the bottom sheet, the verified-only
            // switch and the gender choice (the menu, the sign-out, the confirmations, the safety actions,
            // the prompt editor), and Web Push (the sign-out turns it off). Taken along into deckExtras,
            // they made all of those import the deck's extras at once. Below the deck's group (the
            // verified badge stays with the card), above deckExtras.
            {
              name: 'shared',
              test: /src[\\/]components[\\/](BottomSheet|VerifiedOnlySwitch|GenderChoice)\.tsx$|src[\\/]lib[\\/]webPush\.ts$/,
              priority: 0.5,
            },
            // What the deck's first card does not need (issue 41): the like-message sheet, the like limit's
            // panel, the empty deck and the match overlay, one file fetched once the page has settled
            // (screens/Search/deckExtras.ts). Below the deck's group, so the calls both use stay there.
            {
              name: 'deckExtras',
              test: /src[\\/]screens[\\/]Search[\\/](deckExtras\.ts|EmptyDeck\.tsx|LikeLimitPanel\.tsx|LikeMessageSheet)|src[\\/]components[\\/]MatchOverlay\.tsx$/,
              priority: 0,
            },
          ],
        },
      },
    },
  },
  server: {
    fs: { allow: [repoRoot] },
    proxy: { '/api': 'http://localhost:8080' },
  },
});
