// Several devices often share a name ('Chrome on Linux'): every list of devices puts the one in
// use first and tells the others apart by the end of their device id.

interface NamedDevice {
  deviceId: string;
  deviceName: string;
}

/** The last characters of a device id: short, and different for two browsers of the same kind. */
export function shortDeviceId(deviceId: string): string {
  return deviceId.slice(-4);
}

/** 'Chrome on Linux (ID …k3f9)': the name people know, with what sets it apart. */
export function deviceLabel({ deviceId, deviceName }: NamedDevice): string {
  return `${deviceName} (ID …${shortDeviceId(deviceId)})`;
}

/** The device making the request first, the others in the server's order. */
export function currentFirst<T extends { isCurrent: boolean }>(devices: readonly T[]): T[] {
  return [...devices].sort((a, b) => Number(b.isCurrent) - Number(a.isCurrent));
}
