// The 44-byte RIFF header of 16-bit PCM WAV: enough for the server's probe to accept bench tones.

/** Header for `dataBytes` bytes of 16-bit PCM at 44.1 kHz with `channels` channels. */
export function wavHeader(dataBytes, channels) {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(44100, 24);
  header.writeUInt32LE(44100 * 2 * channels, 28);
  header.writeUInt16LE(2 * channels, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(dataBytes, 40);
  return header;
}
