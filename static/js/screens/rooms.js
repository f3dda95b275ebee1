// screens/rooms.js: the races being played now, and new races: on a random
// level, on the level played last, on today's daily puzzle or on a level
// generated for the race at a chosen difficulty. A new room opens its race screen,
// whose link the host shares.

import { app } from '../app.js';
import { api, errorMessage } from '../api.js';
import { go } from '../router.js';
import { $ } from '../dom.js';

export const section = 'screen-rooms';

let wired = false;

// Counts the times the page was left: a room asked for before then no longer
// moves the player, who has gone elsewhere meanwhile.
let left = 0;

// One new room at a time: the buttons wait while a request is out, so that
// a double click opens one room, not two.
function busy(on) {
  for (const id of ['rooms-random', 'rooms-last', 'rooms-daily', 'rooms-generated']) $(id).disabled = on;
}

/** Runs ask(asked) with the buttons off; `asked` tells it whether the page was left since. */
async function oneAtATime(ask) {
  const asked = left;
  busy(true);
  try {
    await ask(asked);
  } finally {
    if (asked === left) busy(false);
  }
}

async function create(body, asked) {
  $('rooms-status').textContent = 'Opening a room…';
  const r = await api.createRoom(body);
  if (asked !== left) return;
  if (!r.ok) {
    $('rooms-status').textContent = errorMessage(r, 'The room could not be opened');
    return;
  }
  $('rooms-status').textContent = '';
  go(`#/race/${r.body.room.id}`);
}

// Today's puzzle is made on its first request: ask for it, then race on it.
async function createDaily(asked) {
  $('rooms-status').textContent = 'Fetching today’s puzzle…';
  const d = await api.daily();
  if (asked !== left) return;
  if (!d.ok) {
    $('rooms-status').textContent = errorMessage(d, 'The daily puzzle cannot be opened');
    return;
  }
  await create({ level: 'daily' }, asked);
}

// A generated level takes the server a moment to make.
async function createGenerated(asked) {
  const difficulty = $('rooms-difficulty').value;
  $('rooms-status').textContent = 'Making a new level…';
  await create({ level: 'generated', difficulty }, asked);
}

export function leave() {
  left++;
  // The request still out is given up: the buttons are free again on return.
  busy(false);
  $('rooms-status').textContent = '';
}

/** A player's name as rooms show it. */
export function playerName(p) {
  return p.name || `Guest ${p.user_id}`;
}

export async function enter() {
  if (!wired) {
    wired = true;
    $('rooms-random').addEventListener('click', () => oneAtATime((asked) => create({ level: 'random' }, asked)));
    $('rooms-last').addEventListener('click',
      () => oneAtATime((asked) => create({ level: 'chosen', level_id: app.lastLevel }, asked)));
    $('rooms-daily').addEventListener('click', () => oneAtATime(createDaily));
    $('rooms-generated').addEventListener('click', () => oneAtATime(createGenerated));
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
