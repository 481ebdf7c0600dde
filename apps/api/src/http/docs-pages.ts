import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

/** What the answer of the pages' own instance says of its connection, not of the content. */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'content-length']);

/**
 * The API's documentation pages under `prefix` (swagger-ui, its scripts and styles, the OpenAPI
 * document as JSON and YAML), made at their first request rather than at every start: swagger-ui
 * with its static files, YAML and file listing was a tenth of a second of the start's processor
 * for pages few people open. They live in a Fastify instance of their own, which reads the app's
 * OpenAPI document, and answer through it; the app's hooks (headers, request id) apply as before.
 */
export function registerDocsPages(app: FastifyInstance, prefix: string): void {
  let pages: Promise<FastifyInstance> | undefined;
  const build = async () => {
    const { default: fastifySwaggerUi } = await import('@fastify/swagger-ui');
    const docs = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
    // swagger-ui serves the document of `@fastify/swagger`, which it requires registered: here,
    // the app's document, under that plugin's name (the mark fastify-plugin would set).
    docs.decorate('swagger', ((opts?: { yaml?: boolean }) => app.swagger(opts as { yaml: true })) as FastifyInstance['swagger']);
    await docs.register(Object.assign(async () => {}, { [Symbol.for('plugin-meta')]: { name: '@fastify/swagger' } }));
    await docs.register(fastifySwaggerUi, { routePrefix: prefix });
    await docs.ready();
    return docs;
  };
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    pages ??= build().catch((err: unknown) => {
      pages = undefined;
      throw err;
    });
    const docs = await pages;
    // Asked as a GET: the app's HEAD of these routes is its GET without the body, as before.
    const answer = await docs.inject({ method: 'GET', url: request.url, headers: request.headers });
    // Nothing there: the app's own not-found answer.
    if (answer.statusCode === 404) return reply.callNotFound();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (!HOP_HEADERS.has(name) && value !== undefined) void reply.header(name, value);
    }
    return reply.status(answer.statusCode).send(answer.rawPayload.length ? answer.rawPayload : undefined);
  };
  for (const url of [prefix, `${prefix}/*`]) app.get(url, { config: { access: 'public' }, schema: { hide: true } }, handler);
}
