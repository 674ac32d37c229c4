import { emptyPublicConfig, publicConfigResponse, type PublicConfig } from '../../../../server/contract/config.ts';
import { api } from '../client.ts';

let cached: Promise<PublicConfig> | null = null;

/** `GET /api/config`, once per page; an unreachable config just hides the optional parts. */
export function loadPublicConfig(): Promise<PublicConfig> {
  cached ??= api.get('/api/config', publicConfigResponse).catch(() => {
    cached = null;
    return emptyPublicConfig;
  });
  return cached;
}
