import { describe, expect, it, vi } from 'vitest';
import { YoungCollector } from '../../src/workers/young-collector.js';

describe('young collections by buffers made', () => {
  it('collects the young generation once per threshold of bytes made', () => {
    const gc = vi.fn();
    const collector = new YoungCollector(8, gc);
    collector.add(5);
    expect(gc).not.toHaveBeenCalled();
    collector.add(3);
    expect(gc).toHaveBeenCalledTimes(1);
    expect(gc).toHaveBeenCalledWith({ type: 'minor' });
    collector.add(7);
    expect(gc).toHaveBeenCalledTimes(1);
    collector.add(100);
    expect(gc).toHaveBeenCalledTimes(2);
  });

  it('does nothing where Node does not expose gc', () => {
    const collector = new YoungCollector(1, undefined);
    expect(() => collector.add(10)).not.toThrow();
  });
});
