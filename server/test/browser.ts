/**
 * An HTTP client that behaves like a browser tab towards the API: it keeps cookies, fetches and sends
 * the CSRF token, and can present a bearer token instead. Requests are real HTTP to the real app.
 */
export class Browser {
  private readonly cookies = new Map<string, string>();
  private csrf: string | undefined;
  bearer: string | undefined;

  constructor(private readonly baseUrl: string) {}

  async csrfToken(): Promise<string> {
    if (!this.csrf) {
      const res = await this.request('GET', '/api/csrf_token');
      this.csrf = ((await res.json()) as { csrf_token: string }).csrf_token;
    }
    return this.csrf;
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.request('GET', path, undefined, headers);
  }

  /** A POST as the app makes it: JSON with the CSRF header (unless `csrf: false`). */
  async post(path: string, body: unknown = {}, options: { csrf?: boolean; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', ...options.headers };
    if (options.csrf !== false && !this.bearer) headers['X-CSRF-Token'] = await this.csrfToken();
    return this.request('POST', path, typeof body === 'string' ? body : JSON.stringify(body), headers);
  }

  /** A multipart POST (FormData) as the app's upload forms send it; fetch sets the boundary. */
  async postForm(path: string, form: FormData, options: { csrf?: boolean } = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    if (options.csrf !== false && !this.bearer) headers['X-CSRF-Token'] = await this.csrfToken();
    return this.send('POST', path, form, headers);
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** The Cookie header this tab sends, for a request made by hand (a raw `http.request`). */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  clearCookies(): void {
    this.cookies.clear();
    this.csrf = undefined;
  }

  request(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.send(method, path, body, headers);
  }

  private async send(
    method: string,
    path: string,
    body: string | FormData | undefined,
    headers: Record<string, string>,
  ) {
    const all: Record<string, string> = { ...headers };
    if (this.cookies.size) all.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (this.bearer) all.Authorization = `Bearer ${this.bearer}`;
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: all,
      ...(body !== undefined ? { body } : {}),
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = /max-age=0|expires=Thu, 01 Jan 1970/i.test(line);
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
}

export async function json<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T;
}
