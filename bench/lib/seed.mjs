// Fills a fresh DATA_DIR (and database) for every stage: accounts with device sessions made straight
// through the ORM (1,000 subscribers cannot each pay two argon2 logins), tokens signed with the
// bench SECRET, a library of files with grants and covers, real MP3 bytes for the stream stage.
import { execFile } from 'node:child_process';
import { linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { dist } from './paths.mjs';

const { createApp } = await import(dist('compose/app.js'));
const { loadConfig } = await import(dist('config.js'));
const { createLogger } = await import(dist('logger.js'));
const { hashPassword } = await import(dist('features/auth/auth.service.js'));
const { signAccessToken } = await import(dist('features/auth/tokens.js'));
const { DeviceSession } = await import(dist('features/auth/device-session.entity.js'));
const { User, UserRole } = await import(dist('features/users/user.entity.js'));
const { AudioFile } = await import(dist('features/files/audio-file.entity.js'));
const { CoverStorage } = await import(dist('features/files/cover.entity.js'));
const { setCover } = await import(dist('features/files/cover-storage.js'));
const { coverThumbnailJob } = await import(dist('features/files/cover-thumbnail-job.js'));
const { FileAccess } = await import(dist('features/access/file-access.entity.js'));
const { ListeningProgress } = await import(dist('features/progress/listening-progress.entity.js'));
const { ffmpegPath } = await import(dist('features/media/ffmpeg.js'));

export const BENCH_PASSWORD = 'bench-password-123';
/** Files each browser has started and not finished: its library's Continue listening row. */
const STARTED_PER_BROWSER = 6;
/** Distinct covers; every fourth file has one, half of them inline in the database. */
const COVER_VARIANTS = 4;
/** The stream stage's audio: 10 minutes of 128 kbit/s MP3, so a listener never runs off the end. */
export const STREAM_SECONDS = 600;
export const STREAM_BITRATE = 128_000;
const PIECE_SECONDS = 10;

/**
 * Encodes 10 s of tone without Xing/ID3 headers and repeats its frames up to STREAM_SECONDS: a valid
 * MP3 stream, at a sixtieth of the encoding time (which matters on a busy 2-core machine).
 */
async function makeMp3(file) {
  const piece = `${file}.piece.mp3`;
  await promisify(execFile)(ffmpegPath({ ffmpegPath: process.env.FFMPEG_PATH }), [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:sample_rate=44100:duration=${PIECE_SECONDS}`,
    '-ac',
    '1',
    '-b:a',
    '128k',
    '-write_xing',
    '0',
    '-id3v2_version',
    '0',
    '-map_metadata',
    '-1',
    piece,
  ]);
  const frames = readFileSync(piece);
  writeFileSync(file, Buffer.concat(Array.from({ length: STREAM_SECONDS / PIECE_SECONDS }, () => frames)));
  rmSync(piece);
}

/**
 * Covers of a realistic weight: 500x500 JPEGs of a detailed picture (a Mandelbrot view), 38-71 KB
 * like real album art, not a 68-byte pixel that flatters every page that shows them.
 */
async function makeCovers(dir) {
  const covers = [];
  for (let i = 0; i < COVER_VARIANTS; i++) {
    const file = path.join(dir, `cover-${i}.jpg`);
    await promisify(execFile)(ffmpegPath({ ffmpegPath: process.env.FFMPEG_PATH }), [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-f', 'lavfi'],
      ...['-i', `mandelbrot=size=500x500:start_scale=${i + 1}:start_x=-0.7${i}`, '-frames:v', '1', '-q:v', '5', file],
    ]);
    covers.push({ bytes: readFileSync(file), mimeType: 'image/jpeg' });
    rmSync(file);
  }
  return covers;
}

/**
 * Seeds the database behind `env` and returns what the stages need: tokens and device ids per group,
 * file ids, and the app config. Groups: admin (3 sessions: main + 2 uploaders), browsers,
 * loginUsers (no token needed), subscribers, listeners.
 */
export async function seed(env, counts) {
  const config = loadConfig(env);
  const app = await createApp(config, { logger: createLogger('warn') });
  try {
    const em = app.orm.em.fork();
    const passwordHash = await hashPassword(BENCH_PASSWORD);
    const makeUser = (name, role = UserRole.user) =>
      em.create(User, { name, email: `${name}@bench.example`, role, passwordHash });
    const makeSession = (user, deviceId) =>
      em.create(DeviceSession, {
        user,
        deviceId,
        deviceName: 'Benchmark client',
        deviceType: 'other',
        ipAddress: '127.0.0.1',
      });

    const admin = makeUser('bench-admin', UserRole.admin);
    const adminSessions = ['admin-main', 'admin-uploader-1', 'admin-uploader-2'].map((d) => makeSession(admin, d));
    const group = (prefix, n) =>
      Array.from({ length: n }, (_, i) => {
        const user = makeUser(`${prefix}-${i}`);
        return { user, session: makeSession(user, `${prefix}-device-${i}`) };
      });
    const browsers = group('browser', counts.browsers);
    const loginUsers = group('login', counts.loginClients);
    const subscribers = group('subscriber', counts.subscribers);
    const listeners = group('listener', counts.listeners);
    // Signs in through the web app for Lighthouse: no device session yet, so no approval step.
    const pageUser = makeUser('lighthouse');

    // One real MP3, hard-linked under every file's stored path: real bytes, no extra disk.
    const audioDir = path.join(config.dataDir, 'audio');
    mkdirSync(audioDir, { recursive: true });
    const master = path.join(config.dataDir, 'bench-master.mp3');
    await makeMp3(master);
    const size = statSync(master).size;
    const covers = await makeCovers(config.dataDir);
    const covered = [];
    const base = Date.now();
    const files = Array.from({ length: counts.files }, (_, i) => {
      const file = em.create(AudioFile, {
        title: `Bench track ${i + 1}`,
        description: `A ten-minute tone, number ${i + 1}`,
        filename: `track-${i + 1}.mp3`,
        storagePath: '',
        size,
        duration: STREAM_SECONDS,
        mimeType: 'audio/mpeg',
        isPublic: i % 5 === 0,
        createdAt: new Date(base - i * 1000),
      });
      file.storagePath = `audio/${file.id}.mp3`;
      linkSync(master, path.join(config.dataDir, file.storagePath));
      if (i % 4 === 0) covered.push(file);
      return file;
    });
    const coverWrites = [];
    for (const [i, file] of covered.entries()) {
      const storage = i % 2 === 0 ? CoverStorage.base64 : CoverStorage.file;
      coverWrites.push(await setCover(em, config.dataDir, file, covers[i % covers.length], storage));
    }
    const privateFiles = files.filter((f) => !f.isPublic);
    // Browsers hold grants (the library query joins them) and have started a few of those files
    // (the library's progress fields and Continue listening read them); listeners play public files.
    for (const [i, { user }] of browsers.entries()) {
      for (let k = 0; k < counts.grantsPerUser; k++) {
        const file = privateFiles[(i * 7 + k) % privateFiles.length];
        em.create(FileAccess, { user, file });
        if (k < STARTED_PER_BROWSER)
          em.create(ListeningProgress, { user, file, position: 60 * (k + 1), updatedAt: new Date(base - k * 60_000) });
      }
    }
    // The page user's library: its first grants are covered files, as a real library's would be.
    const pageFiles = [...privateFiles.filter((f) => covered.includes(f)), ...privateFiles].slice(
      0,
      counts.grantsPerUser,
    );
    for (const file of new Set(pageFiles)) em.create(FileAccess, { user: pageUser, file });
    await em.flush();
    // The card-sized copies, as the app's background job makes them minutes at most after an upload:
    // without them every card would be sent the original.
    for (const { cover } of coverWrites) {
      const data = { fileId: cover.file.id, updatedAt: cover.updatedAt.toISOString() };
      await coverThumbnailJob.handler(data, { orm: app.orm, deps: { config } });
    }

    const withTokens = (list) =>
      Promise.all(
        list.map(async ({ user, session }) => ({
          userId: user.id,
          sessionId: session.id,
          deviceId: session.deviceId,
          email: user.email,
          token: await signAccessToken(config.secret, {
            userId: user.id,
            sessionId: session.id,
            sessionStart: session.createdAt.getTime(),
          }),
        })),
      );
    return {
      admin: await withTokens(adminSessions.map((session) => ({ user: admin, session }))),
      browsers: await withTokens(browsers),
      pageUser: { email: pageUser.email, password: BENCH_PASSWORD, fileId: pageFiles[0].id },
      loginUsers: loginUsers.map(({ user, session }) => ({ email: user.email, deviceId: session.deviceId })),
      subscribers: await withTokens(subscribers),
      listeners: await withTokens(listeners),
      fileIds: files.map((f) => f.id),
      publicFileIds: files.filter((f) => f.isPublic).map((f) => f.id),
      passwordHash,
      password: BENCH_PASSWORD,
      bytesFile: master,
      totals: {
        users: 2 + browsers.length + loginUsers.length + subscribers.length + listeners.length,
        files: files.length,
      },
      app,
    };
  } catch (err) {
    await app.close();
    throw err;
  }
}
