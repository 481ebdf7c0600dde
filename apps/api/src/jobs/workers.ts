import type { JobHandlers } from './queue.ts';
import type { Mailer } from '../modules/mail/mailer.ts';
import { renderMail } from '../modules/mail/mail-templates.ts';

/** The handler of every job; each is safe to run twice. */
export function createJobHandlers(deps: { mailer: Mailer }): JobHandlers {
  return {
    'mail.send': async ({ to, lang, template }) => {
      await deps.mailer.send(to, renderMail(template, lang));
    },
  };
}
