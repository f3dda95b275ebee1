// screens/credits.js: who made the levels, collection by collection.

import { app } from '../app.js';
import { $ } from '../dom.js';
import { counted } from '../words.js';

export const section = 'screen-credits';

export async function enter() {
  const box = $('credits-list');
  const collections = await app.collections();
  if (!collections) {
    box.innerHTML = '<p class="muted">The server cannot be reached.</p>';
    return;
  }
  const parts = [];
  for (const c of collections) {
    const data = await app.collection(c.id);
    const counts = new Map();
    for (const l of data?.levels ?? []) {
      const who = (l.author || '').trim() || 'Unknown author';
      counts.set(who, (counts.get(who) || 0) + 1);
    }
    const div = document.createElement('div');
    div.className = 'credits-collection';
    const h = document.createElement('h3');
    h.textContent = c.name;
    const ul = document.createElement('ul');
    for (const [who, n] of [...counts].sort((a, b) => b[1] - a[1])) {
      const li = document.createElement('li');
      li.textContent = `${who}: ${counted(n, 'level')}`;
      ul.append(li);
    }
    div.append(h, ul);
    parts.push(div);
  }
  box.replaceChildren(...parts);
}
