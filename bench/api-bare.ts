import Fastify from 'fastify';
import pg from 'pg';
import { createTokens } from '../apps/api/src/modules/auth/tokens.ts';

/**
 * The baseline of bench/api.ts: bare Fastify routes that do what the product's routes cannot do
 * without — the same token check (JWT, then the session row), the same SQL through the same driver
 * (a pg pool of the same size, prepared statements), JSON out — and nothing else: no validation,
 * no envelope, no row mapping, no query building.
 */
const url = process.env.BENCH_BARE_DATABASE_URL!;
const port = Number(process.env.BENCH_BARE_PORT);
const tokens = createTokens(process.env.BENCH_JWT_SECRET!);
const pool = new pg.Pool({ connectionString: url, max: 10 });

const SESSION = `select u.id, u.roles, u.preferences, s.id as session_id from sessions s inner join users u on u.id = s.user_id
  where s.id = $1 and s.user_id = $2 and s.revoked_at is null and s.expires_at > $3`;

const LIST = `select v.*, u.first_name, u.last_name, s.id as s_id, s.name_fr as s_fr, s.name_en as s_en,
    o.id as o_id, o.name_fr as o_fr, o.name_en as o_en, o.icon as o_icon,
    (select count(*)::int from video_pictures p where p.video_id = v.id) as picture_count
  from videos v inner join users u on u.id = v.author_id
  left join surgeries s on s.id = v.surgery_id left join organs o on o.id = v.organ_id
  where v.author_id = $1 order by v.created_at desc, v.id asc limit $2 offset $3`;
const LIST_COUNT = 'select count(*)::int as total from videos where author_id = $1';

const DETAIL = `select v.*, u.first_name, u.last_name, s.id as s_id, s.name_fr as s_fr, s.name_en as s_en,
    o.id as o_id, o.name_fr as o_fr, o.name_en as o_en, o.icon as o_icon,
    exists (select 1 from video_shares vs where vs.video_id = v.id and vs.user_id = $2) as shared
  from videos v inner join users u on u.id = v.author_id
  left join surgeries s on s.id = v.surgery_id left join organs o on o.id = v.organ_id
  where v.id = $1`;
const PICTURES = `select p.id, p.media_id, m.width, m.height from video_pictures p inner join media m on m.id = p.media_id
  where p.video_id = $1 order by p.position asc, p.created_at asc`;
const SHARES = `select vs.user_id, u.email, u.first_name, u.last_name, vs.created_at from video_shares vs
  inner join users u on u.id = vs.user_id where vs.video_id = $1 order by vs.created_at asc`;

const NOTIFICATIONS = 'select * from notifications where user_id = $1 order by created_at desc, id desc limit $2 offset $3';
const NOTIFICATION_TOTALS = `select count(*)::int as total, count(*) filter (where status = 'unread')::int as unread from notifications where user_id = $1`;

async function user(authorization: string | undefined): Promise<string | null> {
  const claims = authorization?.startsWith('Bearer ') ? await tokens.verify(authorization.slice(7)) : null;
  if (!claims) return null;
  const { rows } = await pool.query({ name: 'session', text: SESSION, values: [claims.sessionId, claims.userId, new Date()] });
  return (rows[0]?.id as string | undefined) ?? null;
}

const app = Fastify();
app.get('/bare/videos', async (request, reply) => {
  const id = await user(request.headers.authorization);
  if (!id) return reply.status(401).send();
  const [rows, total] = await Promise.all([
    pool.query({ name: 'list', text: LIST, values: [id, 20, 0] }),
    pool.query({ name: 'list-count', text: LIST_COUNT, values: [id] }),
  ]);
  return { data: rows.rows, total: total.rows[0].total };
});
app.get<{ Params: { id: string } }>('/bare/videos/:id', async (request, reply) => {
  const id = await user(request.headers.authorization);
  if (!id) return reply.status(401).send();
  const { rows } = await pool.query({ name: 'detail', text: DETAIL, values: [request.params.id, id] });
  const video = rows[0];
  if (!video || (video.author_id !== id && !video.shared)) return reply.status(404).send();
  const [pictures, shares] = await Promise.all([
    pool.query({ name: 'pictures', text: PICTURES, values: [video.id] }),
    pool.query({ name: 'shares', text: SHARES, values: [video.id] }),
  ]);
  return { ...video, pictures: pictures.rows, shares: shares.rows };
});
app.get('/bare/notifications', async (request, reply) => {
  const id = await user(request.headers.authorization);
  if (!id) return reply.status(401).send();
  const [rows, totals] = await Promise.all([
    pool.query({ name: 'notifications', text: NOTIFICATIONS, values: [id, 20, 0] }),
    pool.query({ name: 'notification-totals', text: NOTIFICATION_TOTALS, values: [id] }),
  ]);
  return { data: rows.rows, ...totals.rows[0] };
});
await app.listen({ port, host: '127.0.0.1' });
process.stdout.write('ready\n');
process.on('SIGTERM', () => void app.close().then(() => pool.end().then(() => process.exit(0))));
