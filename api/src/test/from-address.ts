import { request } from 'node:http';

export interface AddressedResponse<T> {
  status: number;
  body: T;
  /** The cookies the answer set, as a browser would send them back (name=value). */
  cookies: string[];
}

/**
 * A JSON POST to `url` sent from `from`, one of this machine's loopback addresses (127.0.0.0/8), so
 * that the app sees clients at distinct addresses without any forwarding header.
 */
export function postFrom<T = Record<string, unknown>>(
  from: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<AddressedResponse<T>> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', localAddress: from, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(text) as T,
            cookies: (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
