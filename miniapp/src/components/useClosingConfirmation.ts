import { useEffect } from 'react';
import { platform } from '../platform/index.ts';

/**
 * While `unsaved` (text typed in the profile wizard or a message box), Telegram asks before the Mini App
 * closes, so a swipe down does not throw the text away. Off again when saved or when the screen goes.
 */
export function useClosingConfirmation(unsaved: boolean): void {
  useEffect(() => {
    if (!unsaved) return;
    platform().confirmClosing(true);
    return () => platform().confirmClosing(false);
  }, [unsaved]);
}
