import { describe, expect, it } from 'vitest';
import { currentFirst, deviceLabel } from './device-label';

describe('device labels', () => {
  it('tells apart two devices with the same name by the end of their ids', () => {
    const a = deviceLabel({ deviceName: 'Chrome on Linux', deviceId: '1x2y3z-0a1b2c3d4e5f6a7b-mf3k9q2a' });
    const b = deviceLabel({ deviceName: 'Chrome on Linux', deviceId: '1x2y3z-9f8e7d6c5b4a3f2e-mf3k9r7c' });
    expect(a).toBe('Chrome on Linux (ID …9q2a)');
    expect(b).toBe('Chrome on Linux (ID …9r7c)');
  });

  it('lists the current device first and keeps the order of the others', () => {
    const devices = [
      { id: 'a', isCurrent: false },
      { id: 'b', isCurrent: false },
      { id: 'c', isCurrent: true },
      { id: 'd', isCurrent: false },
    ];
    expect(currentFirst(devices).map((d) => d.id)).toEqual(['c', 'a', 'b', 'd']);
    expect(devices.map((d) => d.id)).toEqual(['a', 'b', 'c', 'd']);
  });
});
