// screens/rooms.js: the races being played now, and new races: on a random
// level, on the level played last, on today's daily puzzle or on a level
// generated for the race at a chosen difficulty. A new room opens its race screen,
// whose link the host shares.

import { app } from '../app.js';
import { api, errorMessage } from '../api.js';
import { go } from '../router.js';

export const section = 'screen-rooms';

const $ = (id) => document.getElementById(id);
let wired = false;

async function create(body) {
  $('rooms-status').textContent = 'Opening a room…';
  const r = await api.createRoom(body);
  if (!r.ok) {
    $('rooms-status').textContent = errorMessage(r, 'The room could not be opened');
    return;
  }
  $('rooms-status').textContent = '';
  go(`#/race/${r.body.room.id}`);
}

// Today's puzzle is made on its first request: ask for it, then race on it.
async function createDaily() {
  $('rooms-status').textContent = 'Fetching today’s puzzle…';
  const d = await api.daily();
  if (!d.ok) {
    $('rooms-status').textContent = errorMessage(d, 'The daily puzzle cannot be opened');
    return;
  }
  await create({ level: 'daily' });
}

// A generated level takes the server a moment to make.
async function createGenerated() {
  const difficulty = $('rooms-difficulty').value;
  $('rooms-generated').disabled = true;
  $('rooms-status').textContent = 'Making a new level…';
  try {
    await create({ level: 'generated', difficulty });
  } finally {
    $('rooms-generated').disabled = false;
  }
}

/** A player's name as rooms show it. */
export function playerName(p) {
  return p.name || `Guest ${p.user_id}`;
}

export async function enter() {
  if (!wired) {
    wired = true;
    $('rooms-random').addEventListener('click', () => create({ level: 'random' }));
    $('rooms-last').addEventListener('click', () => create({ level: 'chosen', level_id: app.lastLevel }));
    $('rooms-daily').addEventListener('click', createDaily);
    $('rooms-generated').addEventListener('click', createGenerated);
  }
  $('rooms-last').hidden = !app.lastLevel;
  const list = $('rooms-list');
  const r = await api.rooms();
  list.replaceChildren();
  const rooms = r.ok ? r.body.rooms : [];
  if (rooms.length === 0) {
    const li = document.createElement('li');
    li.className = 'muted';
    li.textContent = r.ok ? 'No race is being played right now: start one!' : errorMessage(r);
    list.append(li);
    return;
  }
  for (const room of rooms) {
    const li = document.createElement('li');
    const text = document.createElement('span');
    const players = room.players.filter((p) => !p.left).map(playerName).join(', ');
    text.textContent = `${room.title || 'A level'}: ${players} (${room.state})`;
    const a = document.createElement('a');
    a.className = 'button';
    a.href = `#/race/${room.id}`;
    a.textContent = room.state === 'lobby' ? 'Open' : 'Watch';
    li.append(text, a);
    list.append(li);
  }
}
