import { describe, expect, it } from 'vitest';
import { chartGeometry } from '../src/chart';

describe('chartGeometry', () => {
  it('draws nothing without points', () => {
    expect(chartGeometry([], 400, 200).path).toBe('');
  });

  it('puts one point in the middle', () => {
    const g = chartGeometry([1500], 400, 200, 20);
    expect(g.points).toHaveLength(1);
    expect(g.points[0]!.x).toBe(200);
    expect(g.path.startsWith('M200.0 ')).toBe(true);
  });

  it('scales higher ratings up and spans the box', () => {
    const g = chartGeometry([1500, 1540, 1480], 400, 200, 20);
    expect(g.points.map(p => p.x)).toEqual([20, 200, 380]);
    const [a, b, c] = g.points;
    expect(b!.y).toBeLessThan(a!.y);
    expect(c!.y).toBeGreaterThan(a!.y);
    expect(g.min).toBeLessThanOrEqual(1455);
    expect(g.max).toBeGreaterThanOrEqual(1565);
    for (const p of g.points) {
      expect(p.y).toBeGreaterThanOrEqual(20);
      expect(p.y).toBeLessThanOrEqual(180);
    }
    expect(g.ticks.length).toBeGreaterThanOrEqual(2);
    expect(g.ticks[0]!.rating).toBe(g.min);
    expect(g.path.split(' L')).toHaveLength(3);
  });
});
