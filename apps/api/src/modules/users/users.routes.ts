import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  resendCodeBody,
  resetCheckAndSetBody,
  resetCheckBody,
  resetSendBody,
  setNewPasswordBody,
  signUpBody,
  verifyBody,
} from '@sutura/domain/auth';
import { PICTURE_MAX_BYTES } from '@sutura/domain/limits';
import { preferencesSchema } from '@sutura/domain/preferences';
import { parseListQuery } from '@sutura/domain/query';
import {
  USER_POPULATE_FIELDS,
  USER_SELECT_FIELDS,
  anonymousLanguageBody,
  deleteAccountBody,
  pushTokenBody,
  removePushTokenBody,
  updateProfileBody,
} from '@sutura/domain/users';
import { ok } from '../../http/envelope.ts';
import { listQuerystring } from '../../http/list-query.ts';
import { requireUser } from '../../http/access.ts';
import { requestLanguage, LANGUAGE_COOKIE } from '../../http/language.ts';
import { authRateLimit, clientInfo, lookupLimit } from '../../http/route-helpers.ts';
import { AppError } from '../../http/errors.ts';
import { eachPart } from '../../http/multipart.ts';
import { MULTIPART_REQUEST_TIMEOUT_MS } from '../../http/timeouts.ts';
import type { PushService } from '../push/push.service.ts';
import type { VideoService } from '../videos/videos.service.ts';
import type { UserService } from './users.service.ts';
import type { SsoService } from '../sso/sso.service.ts';

const idParams = z.object({ id: z.uuid() });

export function usersRoutes(deps: {
  sso: Pick<SsoService, 'passwordAllowed'>;
  users: UserService;
  videos: VideoService;
  push: PushService;
  avatarMaxBytes: number;
  rateLimit: number;
  lookupsPerHour: number;
}): FastifyPluginAsyncZod {
  const { users } = deps;
  const limited = { rateLimit: authRateLimit(deps.rateLimit) };
  return async (app) => {
    // Both answer whether an email has an account (EMAIL_NOT_FOUND, as the spec says).
    const resendLookups = lookupLimit(app, deps.lookupsPerHour, 'resend');
    const resetLookups = lookupLimit(app, deps.lookupsPerHour, 'reset');
    app.post(
      '/users',
      { config: { access: 'public', ...limited }, schema: { tags: ['users'], body: signUpBody } },
      async (request, reply) => {
        // SSO-only: accounts come from the providers.
        if (!deps.sso.passwordAllowed(undefined)) throw new AppError('PASSWORD_SIGN_IN_OFF');
        const result = await users.signUp(request.body, request.ip, requestLanguage(request));
        return reply.status(201).send(ok(result));
      },
    );

    app.post(
      '/users/verify',
      { config: { access: 'public', ...limited }, schema: { tags: ['users'], body: verifyBody } },
      async (request, reply) => {
        const { ip, userAgent } = clientInfo(request);
        return ok(reply.session(await users.verifyEmail(request.body.email, request.body.code, ip, userAgent)));
      },
    );

    app.post(
      '/users/verify/resend',
      { config: { access: 'public', ...limited }, preHandler: resendLookups, schema: { tags: ['users'], body: resendCodeBody } },
      async (request) => {
        await users.resendVerification(request.body.email, requestLanguage(request));
        return ok({});
      },
    );

    app.post(
      '/users/reset/send',
      { config: { access: 'public', ...limited }, preHandler: resetLookups, schema: { tags: ['users'], body: resetSendBody } },
      async (request) => {
        if (!deps.sso.passwordAllowed(request.body.email)) throw new AppError('PASSWORD_SIGN_IN_OFF');
        await users.sendResetCode(request.body.email, request.ip, requestLanguage(request));
        return ok({});
      },
    );

    app.post(
      '/users/reset/check',
      { config: { access: 'public', ...limited }, schema: { tags: ['users'], body: resetCheckBody } },
      async (request) => {
        await users.checkResetCode(request.body.email, request.body.code);
        return ok({ valid: true });
      },
    );

    app.post(
      '/users/reset/checkAndSet',
      { config: { access: 'public', ...limited }, schema: { tags: ['users'], body: resetCheckAndSetBody } },
      async (request) => {
        await users.resetPassword(request.body.email, request.body.code, request.body.password, request.ip);
        return ok({});
      },
    );

    app.post(
      '/users/reset/setNewPassword',
      { config: { access: 'authenticated', ...limited }, schema: { tags: ['users'], body: setNewPasswordBody } },
      async (request, reply) => {
        return ok(
          reply.session(await users.changePassword(requireUser(request), request.body.currentPassword, request.body.password, request.ip)),
        );
      },
    );

    app.put(
      '/users/language',
      { config: { access: 'public' }, schema: { tags: ['users'], body: anonymousLanguageBody } },
      async (request, reply) => {
        const { langCode } = request.body;
        reply.header('set-cookie', `${LANGUAGE_COOKIE}=${langCode}; Path=/; Max-Age=31536000; SameSite=Lax`);
        return ok({ langCode });
      },
    );

    app.get('/users/profile/me', { config: { access: 'authenticated' }, schema: { tags: ['users'] } }, async (request) => {
      const user = await users.byId(requireUser(request).id);
      return ok(await users.toProfile(user, requestLanguage(request)));
    });

    app.put(
      '/users/profile/me',
      { config: { access: 'authenticated' }, schema: { tags: ['users'], body: updateProfileBody } },
      async (request) => ok(await users.updateProfile(requireUser(request), request.body, request.ip, requestLanguage(request))),
    );

    app.delete('/users/profile/me/avatar', { config: { access: 'authenticated' }, schema: { tags: ['users'] } }, async (request) =>
      ok(await users.removeAvatar(requireUser(request), request.ip, requestLanguage(request))),
    );

    app.get('/users/preferences', { config: { access: 'authenticated' }, schema: { tags: ['users'] } }, async (request) => {
      const user = await users.byId(requireUser(request).id);
      return ok({ preferences: user.preferences });
    });

    app.put(
      '/users/preferences',
      { config: { access: 'authenticated' }, schema: { tags: ['users'], body: preferencesSchema } },
      async (request) => ok({ preferences: await users.setPreferences(requireUser(request), request.body) }),
    );

    app.post(
      '/users/me/delete',
      { config: { access: 'authenticated', ...limited }, schema: { tags: ['users'], body: deleteAccountBody } },
      async (request, reply) => {
        const receipt = await users.deleteAccount(requireUser(request), request.body.password, request.body.confirmation);
        reply.clearSession();
        return ok(receipt);
      },
    );

    app.put(
      '/users/save/pushtoken',
      { config: { access: 'authenticated' }, schema: { tags: ['users'], body: pushTokenBody } },
      async (request) => {
        const user = requireUser(request);
        const { pushToken, keys } = request.body;
        // A browser subscription: its endpoint is the address of a push service.
        if (keys && !/^https?:\/\//.test(pushToken)) throw new AppError('VALIDATION', {}, [{ path: 'pushToken', code: 'INVALID_VALUE' }]);
        // The endpoint is checked (https, public addresses) before anything is saved.
        if (keys) await deps.push.subscribe(user.id, pushToken, keys, request.headers['user-agent']);
        await users.savePushToken(user, pushToken);
        return ok({});
      },
    );

    app.delete(
      '/users/save/pushtoken',
      { config: { access: 'authenticated' }, schema: { tags: ['users'], body: removePushTokenBody } },
      async (request) => {
        const user = requireUser(request);
        await deps.push.unsubscribe(user.id, request.body.pushToken);
        await users.clearPushToken(user, request.body.pushToken);
        return ok({});
      },
    );

    app.get(
      '/users/:id',
      { config: { access: 'authenticated' }, schema: { tags: ['users'], params: idParams, querystring: listQuerystring } },
      async (request) => {
        const query = parseListQuery(request.query, { select: USER_SELECT_FIELDS, populate: USER_POPULATE_FIELDS });
        return ok(
          await users.publicUser(request.params.id, query.select, query.populate, requireUser(request).id, requestLanguage(request)),
        );
      },
    );

    // One file per request: an avatar (AVATAR_MAX_BYTES), or a picture of a case (PICTURE_MAX_BYTES,
    // with the case's `videoId`). Each limit is enforced for its own purpose.
    const multipart = { access: 'authenticated' as const, requestTimeoutMs: MULTIPART_REQUEST_TIMEOUT_MS };
    app.post('/common/medias/create/upload', { config: multipart, schema: { tags: ['media'] } }, async (request) => {
      if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA');
      const user = requireUser(request);
      let purpose = 'avatar';
      let videoId: string | undefined;
      let file: Buffer | undefined;
      await eachPart(request, { fileSize: Math.max(deps.avatarMaxBytes, PICTURE_MAX_BYTES) }, async (part) => {
        if (part.type === 'field' && part.fieldname === 'purpose') purpose = String(part.value);
        else if (part.type === 'field' && part.fieldname === 'videoId') videoId = String(part.value);
        else if (part.type === 'file') file = await part.toBuffer();
      });
      if (!file || file.length === 0) throw new AppError('VALIDATION', {}, [{ path: 'file', code: 'FIELD_REQUIRED' }]);
      if (purpose === 'avatar') {
        if (file.length > deps.avatarMaxBytes) throw new AppError('PAYLOAD_TOO_LARGE');
        return ok(await users.setAvatar(user, file, request.ip));
      }
      if (purpose === 'picture') {
        if (!videoId || !z.uuid().safeParse(videoId).success)
          throw new AppError('VALIDATION', {}, [{ path: 'videoId', code: 'FIELD_REQUIRED' }]);
        if (file.length > PICTURE_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE');
        return ok(await deps.videos.addPicture(user, videoId, file, request.ip));
      }
      throw new AppError('VALIDATION', {}, [{ path: 'purpose', code: 'INVALID_VALUE' }]);
    });
  };
}
