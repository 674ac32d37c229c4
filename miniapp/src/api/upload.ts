import { errorResponse } from '@contract/errors.ts';
import { readStored, storageKeys } from '../lib/storage.ts';
import { ApiError, loadCsrfToken, noticeRefusal } from './client.ts';

/**
 * A multipart POST with upload progress (fetch cannot report it; XMLHttpRequest can), authenticated the
 * way api/client.ts does: the stored token, else the cookie session with the CSRF token.
 */
export async function uploadForm(
  path: string,
  form: FormData,
  onProgress: (fraction: number) => void,
): Promise<unknown> {
  const token = readStored(storageKeys.jwtToken);
  const csrf = token ? null : await loadCsrfToken();
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    if (csrf) xhr.setRequestHeader('X-CSRF-Token', csrf);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError(0, 'network', 'Network error'));
    xhr.onload = () => {
      let payload: unknown = null;
      try {
        payload = JSON.parse(xhr.responseText);
      } catch {
        payload = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(payload);
        return;
      }
      const parsed = errorResponse.safeParse(payload);
      noticeRefusal(xhr.status, parsed.success ? parsed.data.code : null, token !== null);
      reject(
        parsed.success
          ? new ApiError(xhr.status, parsed.data.code, parsed.data.error, parsed.data.fields)
          : new ApiError(xhr.status, null, `HTTP ${xhr.status}`),
      );
    };
    xhr.send(form);
  });
}
