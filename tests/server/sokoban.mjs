// A small Sokoban model, written apart from the core, that the tests use to
// work out what the server should answer.
const DIRS = { u: [0, -1], r: [1, 0], d: [0, 1], l: [-1, 0] };

export class Board {
  constructor(rows) {
    this.walls = new Set();
    this.goals = new Set();
    this.boxes = new Set();
    this.width = Math.max(...rows.map((r) => r.length));
    this.height = rows.length;
    rows.forEach((row, y) => {
      [...row].forEach((ch, x) => {
        const k = `${x},${y}`;
        if (ch === '#') this.walls.add(k);
        if ('.*+'.includes(ch)) this.goals.add(k);
        if ('$*'.includes(ch)) this.boxes.add(k);
        if ('@+'.includes(ch)) this.player = [x, y];
      });
    });
    this.moves = 0;
    this.pushes = 0;
  }

  // Plays one letter; returns the letter with the case of what it did, or
  // throws when the step is impossible.
  step(letter) {
    const [dx, dy] = DIRS[letter.toLowerCase()];
    const [x, y] = this.player;
    const next = `${x + dx},${y + dy}`;
    if (this.walls.has(next)) throw new Error(`'${letter}' runs into a wall`);
    let pushed = false;
    if (this.boxes.has(next)) {
      const beyond = `${x + 2 * dx},${y + 2 * dy}`;
      if (this.walls.has(beyond) || this.boxes.has(beyond)) throw new Error(`'${letter}' pushes a blocked box`);
      this.boxes.delete(next);
      this.boxes.add(beyond);
      pushed = true;
      this.pushes++;
    }
    this.player = [x + dx, y + dy];
    this.moves++;
    return pushed ? letter.toUpperCase() : letter.toLowerCase();
  }

  solved() {
    for (const b of this.boxes) if (!this.goals.has(b)) return false;
    return true;
  }

  // Rows as the server writes them: trailing blanks dropped.
  rows() {
    const out = [];
    for (let y = 0; y < this.height; y++) {
      let line = '';
      for (let x = 0; x < this.width; x++) {
        const k = `${x},${y}`;
        const here = this.player[0] === x && this.player[1] === y;
        let ch = ' ';
        if (this.walls.has(k)) ch = '#';
        else if (here) ch = this.goals.has(k) ? '+' : '@';
        else if (this.boxes.has(k)) ch = this.goals.has(k) ? '*' : '$';
        else if (this.goals.has(k)) ch = '.';
        line += ch;
      }
      out.push(line.replace(/ +$/, ''));
    }
    return out;
  }
}

// Plays a solution on a board; returns the counts when it first reaches the
// solved position ({moves, pushes, lurd}), or null if it never does.
export function firstSolved(rows, lurd) {
  const b = new Board(rows);
  let played = '';
  for (const letter of lurd) {
    played += b.step(letter);
    if (b.solved()) return { moves: b.moves, pushes: b.pushes, lurd: played };
  }
  return null;
}
