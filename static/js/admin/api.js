// admin/api.js: the admin part of the sokod API (/api/v1/admin/...): the
// library's collections and levels, uploads (sent in base64 parts that fit
// the server's body cap, each with XMLHttpRequest upload progress), their
// check reports and imports, and the audit log. Every call resolves to
// {ok, status, body} like api.js; nothing throws.

const BASE = '/api/v1/admin';

async function request(method, path, body) {
  try {
    const init = { method, credentials: 'same-origin', headers: {} };
    if (body !== undefined || method !== 'GET') {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body ?? {});
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

/** POSTs JSON with XMLHttpRequest, reporting the request body's progress
 * (0..1) to onProgress. */
function postWithProgress(path, body, onProgress) {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', BASE + path);
    xhr.setRequestHeader('Content-Type', 'application/json');
    xhr.responseType = 'text';
    xhr.upload.onprogress = (e) => { if (e.lengthComputable && e.total > 0) onProgress?.(e.loaded / e.total); };
    xhr.onload = () => {
      let json;
      try {
        json = JSON.parse(xhr.responseText);
      } catch {
        json = null;
      }
      resolve({ ok: xhr.status >= 200 && xhr.status < 300, status: xhr.status, body: json });
    };
    xhr.onerror = () => resolve({ ok: false, status: 0, body: null, offline: true });
    xhr.send(JSON.stringify(body));
  });
}

/** Bytes as base64 (RFC 4648, with padding). */
function base64(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** The default part size before the server has said its own. */
const FIRST_PART = 24 * 1024;

export const adminApi = {
  routes: () => request('GET', '/routes'),
  collections: () => request('GET', '/collections'),
  collection: (id) => request('GET', `/collections/${id}`),
  updateCollection: (id, fields) => request('PATCH', `/collections/${id}`, fields),
  deleteCollection: (id) => request('DELETE', `/collections/${id}`),
  restoreCollection: (id) => request('POST', `/collections/${id}/restore`, {}),
  orderCollections: (ids) => request('PUT', '/collections/order', { collections: ids }),
  orderLevels: (id, ids) => request('PUT', `/collections/${id}/order`, { levels: ids }),
  exportUrl: (id, format) => `${BASE}/collections/${id}/export?format=${format}`,
  level: (id) => request('GET', `/levels/${id}`),
  updateLevel: (id, fields) => request('PATCH', `/levels/${id}`, fields),
  deleteLevel: (id) => request('DELETE', `/levels/${id}`),
  restoreLevel: (id) => request('POST', `/levels/${id}/restore`, {}),
  audit: (before = 0) => request('GET', `/audit${before ? `?before=${before}` : ''}`),
  uploads: () => request('GET', '/uploads'),
  getUpload: (id, levels = true) => request('GET', `/uploads/${id}${levels ? '' : '?levels=0'}`),
  discard: (id) => request('DELETE', `/uploads/${id}`),
  importUpload: (id, target) => request('POST', `/uploads/${id}/import`, target),
  community: () => request('GET', '/community'),
  blockAuthor: (userId, blocked, reason = '') =>
    request('PUT', `/community/authors/${userId}`, blocked ? { blocked, reason } : { blocked }),

  /** Uploads a file's bytes in parts; onProgress(sent, total) as they go.
   * Resolves to {ok, status, body, id, upload, report}: the upload as the
   * server holds it once every byte is in and checked. */
  async upload(filename, bytes, { onProgress, format } = {}) {
    const size = bytes.length;
    let part = Math.min(size, FIRST_PART);
    const first = { filename, size, data: base64(bytes.subarray(0, part)) };
    if (format) first.format = format;
    let r = await postWithProgress('/uploads', first, (f) => onProgress?.(f * part, size));
    if (!r.ok) return r;
    let upload = r.body.upload;
    let sent = upload.received;
    onProgress?.(sent, size);
    while (sent < size) {
      part = Math.min(size - sent, upload.part_bytes || FIRST_PART);
      const body = { offset: sent, data: base64(bytes.subarray(sent, sent + part)) };
      const at = sent;
      r = await postWithProgress(`/uploads/${upload.id}/parts`, body, (f) => onProgress?.(at + f * part, size));
      if (!r.ok) return { ...r, id: upload.id };
      upload = r.body.upload;
      sent = upload.received;
      onProgress?.(sent, size);
    }
    return { ...r, id: upload.id, upload, report: upload.report };
  },
};
