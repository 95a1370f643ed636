// Preloaded into the API child (`node --import bench/lib/probe.mjs api/dist/main.js`): measures the
// server's own event-loop delay and memory, which the load generator in another process cannot see.
// Answers IPC messages { probe: 'reset' } and { probe: 'read' } with { probe: 'stats', ... }.
import { monitorEventLoopDelay } from 'node:perf_hooks';

if (process.send) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const ms = (ns) => Math.round((ns / 1e6) * 10) / 10;
  process.on('message', (message) => {
    if (!message || typeof message !== 'object' || !('probe' in message)) return;
    if (message.probe === 'reset') histogram.reset();
    const memory = process.memoryUsage();
    process.send({
      probe: 'stats',
      id: message.id,
      eventLoopDelayMs: {
        max: ms(histogram.max),
        p50: ms(histogram.percentile(50)),
        p99: ms(histogram.percentile(99)),
      },
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
    });
  });
  // A bench that dies must not leave its server behind.
  process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
