import { useEffect, useState } from 'react';
import { resendCountdownSeconds } from '../lib/constants.ts';

/**
 * The seconds until another code may be sent (the server allows one a minute), counting down to 0 once a
 * second; `restart` starts the count again when a code goes out. `running` starts it at once (a code was
 * just sent before the screen opened).
 */
export function useResendCountdown(running: boolean): [secondsLeft: number, restart: () => void] {
  const [secondsLeft, setSecondsLeft] = useState(running ? resendCountdownSeconds : 0);
  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = window.setTimeout(() => setSecondsLeft((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [secondsLeft]);
  return [secondsLeft, () => setSecondsLeft(resendCountdownSeconds)];
}
