// The rating chart's geometry, pure (unit tested): the points of a rating history scaled into a
// box, the axis ticks, the SVG path. The profile page draws it (players.ts).

export interface ChartPoint {
  x: number;
  y: number;
  rating: number;
}

export interface ChartGeometry {
  points: ChartPoint[];
  /** The SVG path through the points (`M x y L x y ...`), empty without points. */
  path: string;
  /** Horizontal grid lines: a rating and its y. */
  ticks: { rating: number; y: number }[];
  min: number;
  max: number;
}

/** A step of 25, 50, 100, 200, 250 or 500 giving at most about five ticks. */
function tickStep(span: number): number {
  for (const step of [25, 50, 100, 200, 250, 500, 1000]) if (span / step <= 5) return step;
  return 1000;
}

/**
 * Scales ratings (oldest first) into a `width` x `height` box with `pad` around: x by match
 * number (one match a step), y by rating (higher up), the range widened to whole ticks with at
 * least 50 points around the ratings.
 */
export function chartGeometry(ratings: number[], width: number, height: number, pad = 30): ChartGeometry {
  if (ratings.length === 0) return { points: [], path: '', ticks: [], min: 0, max: 0 };
  const lo = Math.min(...ratings);
  const hi = Math.max(...ratings);
  const step = tickStep(Math.max(hi - lo, 100));
  const min = Math.floor((lo - 25) / step) * step;
  const max = Math.ceil((hi + 25) / step) * step;
  const innerW = width - 2 * pad;
  const innerH = height - 2 * pad;
  const y = (r: number): number => pad + ((max - r) / (max - min)) * innerH;
  const n = ratings.length;
  const points = ratings.map((rating, i) => ({
    x: n === 1 ? pad + innerW / 2 : pad + (i / (n - 1)) * innerW,
    y: y(rating),
    rating,
  }));
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ');
  const ticks: { rating: number; y: number }[] = [];
  for (let r = min; r <= max; r += step) ticks.push({ rating: r, y: y(r) });
  return { points, path, ticks, min, max };
}
