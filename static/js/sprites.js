// sprites.js: draws a theme's sprite descriptions. A sprite is a list of
// shapes in a unit square (0..1): rect, circle, ellipse, line and poly, each
// filled and/or stroked with a colour or a linear or radial gradient. Shapes
// marked "look" shift toward the way the player faces. Sprites are rendered
// once per tile size into small canvases, then copied onto the board.

const LOOK = [[0, -1], [1, 0], [0, 1], [-1, 0]];

function paint(ctx, spec, size) {
  if (typeof spec === 'string') return spec;
  if (spec.linear) {
    const [x1, y1, x2, y2] = spec.linear;
    const g = ctx.createLinearGradient(x1 * size, y1 * size, x2 * size, y2 * size);
    for (const [at, colour] of spec.stops) g.addColorStop(at, colour);
    return g;
  }
  if (spec.radial) {
    const [x, y, r] = spec.radial;
    const g = ctx.createRadialGradient(x * size, y * size, 0, x * size, y * size, r * size);
    for (const [at, colour] of spec.stops) g.addColorStop(at, colour);
    return g;
  }
  return '#000';
}

function roundedRect(ctx, x, y, w, h, r) {
  r = Math.max(0, Math.min(r, w / 2, h / 2));
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

function tracePath(ctx, shape, s, dx, dy) {
  ctx.beginPath();
  if (shape.rect) {
    const [x, y, w, h] = shape.rect;
    roundedRect(ctx, (x + dx) * s, (y + dy) * s, w * s, h * s, (shape.r || 0) * s);
  } else if (shape.circle) {
    const [x, y, r] = shape.circle;
    ctx.arc((x + dx) * s, (y + dy) * s, r * s, 0, Math.PI * 2);
  } else if (shape.ellipse) {
    const [x, y, rx, ry] = shape.ellipse;
    ctx.ellipse((x + dx) * s, (y + dy) * s, rx * s, ry * s, 0, 0, Math.PI * 2);
  } else if (shape.line || shape.poly) {
    const p = shape.line || shape.poly;
    ctx.moveTo((p[0] + dx) * s, (p[1] + dy) * s);
    for (let i = 2; i + 1 < p.length; i += 2) ctx.lineTo((p[i] + dx) * s, (p[i + 1] + dy) * s);
    if (shape.poly) ctx.closePath();
  }
}

/** Draws one sprite (a list of shapes) on ctx in a size x size square at
 * (ox, oy), the player facing `facing` (0 up .. 3 left). */
export function drawSprite(ctx, shapes, size, ox = 0, oy = 0, facing = 2) {
  ctx.save();
  ctx.translate(ox, oy);
  for (const shape of shapes) {
    const look = shape.look ? LOOK[facing] : [0, 0];
    const dx = look[0] * shape.look || 0, dy = look[1] * shape.look || 0;
    tracePath(ctx, shape, size, dx, dy);
    if (shape.fill) {
      ctx.fillStyle = paint(ctx, shape.fill, size);
      ctx.fill();
    }
    if (shape.stroke) {
      ctx.strokeStyle = paint(ctx, shape.stroke, size);
      ctx.lineWidth = Math.max(1, (shape.width || 0.04) * size);
      ctx.lineCap = shape.cap || 'round';
      ctx.lineJoin = 'round';
      ctx.stroke();
    }
  }
  ctx.restore();
}

/** A cache of sprites rendered at one tile size (device pixels). */
export class SpriteSheet {
  constructor(sprites, size) {
    this.sprites = sprites;
    this.size = size;
    this.cache = new Map();
  }

  get(name, facing = 2) {
    const key = name + facing;
    let c = this.cache.get(key);
    if (!c) {
      c = document.createElement('canvas');
      c.width = c.height = this.size;
      const shapes = this.sprites[name] || [];
      drawSprite(c.getContext('2d'), shapes, this.size, 0, 0, facing);
      this.cache.set(key, c);
    }
    return c;
  }

  has(name) {
    return Array.isArray(this.sprites[name]) && this.sprites[name].length > 0;
  }
}
