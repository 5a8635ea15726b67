/**
 * Profile downloads: where a release serves the `.tar` of a user's profiles, and the archive
 * read into its `.ovpn` files.
 */
import type { AxiosResponse } from 'axios';
import { ShapeError } from './parse';
import { readTar } from './tar';
import type { Transport } from './transport';
import type { VpnProfile } from './types';

/**
 * `GET /data/<org>/<user>.tar` from 1.32.4465.96, `GET /key/<org>/<user>.tar` before. Each
 * release answers 404 for the other one (gin's `404 page not found` for `/data` on an older
 * server, Flask's `404: Not Found` for `/key` on a newer one; neither handler answers 404
 * itself: a missing user is a 500), so a 404 means "the other route". The route that answered
 * is kept for the next download.
 */
export class ProfileRoutes {
  private route: 'data' | 'key' = 'data';

  constructor(private readonly t: Transport) {}

  /** The download's answer and the path that gave it. */
  async download(orgId: string, userId: string): Promise<{ res: AxiosResponse<Buffer>; path: string }> {
    const first = this.route;
    let route = first;
    for (;;) {
      const path = `/${route}/${orgId}/${userId}.tar`;
      const res = await this.t.request({ method: 'GET', path, timeout: 'download' });
      if (res.status !== 404) this.route = route;
      if (res.status !== 404 || route !== first) return { res, path };
      this.t.log.debug({ manager: this.t.manager, what: `GET ${path}` }, 'VPN server: no such profile route');
      route = route === 'data' ? 'key' : 'data';
    }
  }
}

/** The profile in a 200 answer: the archive, its files, and the server's file name. */
export function profileOf(res: AxiosResponse<Buffer>, userId: string): VpnProfile {
  const archive = Buffer.from(res.data);
  let files;
  try {
    files = readTar(archive);
  } catch (err) {
    throw new ShapeError(err instanceof Error ? err.message : 'unreadable archive');
  }
  const disposition = String(res.headers['content-disposition'] ?? '');
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `${userId}.tar`;
  return { filename, archive, files };
}
