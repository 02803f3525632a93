// The ceiling for the API benchmark: Fastify with one constant route, no logging, nothing else.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ success: true, data: { status: 'ok' } }));
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
