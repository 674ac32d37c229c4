import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { startRoute } from '../lib/startRoute.ts';
import { platform } from '../platform/index.ts';

/** Once per page load: the app opened from a bot button lands on what the button was about. */
let handled = false;

export function StartParamRedirect() {
  const navigate = useNavigate();
  useEffect(() => {
    if (handled) return;
    handled = true;
    const route = startRoute(platform().startParam());
    if (route) void navigate(route, { replace: true });
  }, [navigate]);
  return null;
}
