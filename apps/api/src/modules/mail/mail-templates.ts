import type { Language } from '@sutura/domain/i18n';
import { CODE_TTL_MINUTES } from '@sutura/domain/limits';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export type MailTemplate =
  | { name: 'verificationCode'; params: { firstName: string; code: string } }
  | { name: 'resetCode'; params: { firstName: string; code: string } }
  | { name: 'ssoLinkCode'; params: { firstName: string; code: string; provider: string } }
  | { name: 'resetBlocked'; params: { firstName: string } }
  | { name: 'contact'; params: { fromName: string; fromEmail: string; subject: string; message: string; userId: string } }
  | { name: 'notification'; params: { subject: string; content: string; link: string | null } }
  | { name: 'dataExportReady'; params: { firstName: string; link: string; expiresAt: string; size: number } }
  | { name: 'erasureReceipt'; params: { firstName: string; receipt: string } };

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function layout(paragraphs: string[], lang: Language): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${p}</p>`).join('');
  const footer =
    lang === 'fr'
      ? 'Sutura — plateforme d’analyse de vidéos chirurgicales. Ce message est envoyé automatiquement.'
      : 'Sutura — surgical video analysis platform. This message was sent automatically.';
  return `<!doctype html><html lang="${lang}"><body style="font-family:'Open Sans',Arial,sans-serif;color:#04251E;font-size:16px;line-height:28px">${body}<hr style="border:none;border-top:1px solid #17C7A4"><p style="font-size:13px;color:#555">${footer}</p></body></html>`;
}

function codeMail(kind: 'verify' | 'reset' | 'link', firstName: string, code: string, lang: Language, provider?: string): RenderedMail {
  const fr = lang === 'fr';
  const subject =
    kind === 'link'
      ? fr
        ? `Votre code de liaison Sutura : ${code}`
        : `Your Sutura linking code: ${code}`
      : kind === 'verify'
        ? fr
          ? `Votre code de validation Sutura : ${code}`
          : `Your Sutura validation code: ${code}`
        : fr
          ? `Votre code de réinitialisation Sutura : ${code}`
          : `Your Sutura password reset code: ${code}`;
  const intro =
    kind === 'link'
      ? fr
        ? `Pour lier votre identité ${provider ?? ''} à votre compte Sutura, saisissez ce code :`
        : `To link your ${provider ?? ''} identity to your Sutura account, enter this code:`
      : kind === 'verify'
        ? fr
          ? 'Pour valider votre adresse e-mail et activer votre compte, saisissez ce code :'
          : 'To validate your email address and activate your account, enter this code:'
        : fr
          ? 'Pour choisir un nouveau mot de passe, saisissez ce code :'
          : 'To choose a new password, enter this code:';
  const validity = fr
    ? `Ce code est valable ${CODE_TTL_MINUTES} minutes. Si vous n’êtes pas à l’origine de cette demande, ignorez ce message.`
    : `This code is valid for ${CODE_TTL_MINUTES} minutes. If you did not ask for it, ignore this message.`;
  const hello = fr ? `Bonjour ${firstName},` : `Hello ${firstName},`;
  return {
    subject,
    text: `${hello}\n\n${intro}\n\n    ${code}\n\n${validity}\n`,
    html: layout(
      [
        escapeHtml(hello),
        escapeHtml(intro),
        `<strong style="font-size:28px;letter-spacing:6px">${escapeHtml(code)}</strong>`,
        escapeHtml(validity),
      ],
      lang,
    ),
  };
}

export function renderMail(template: MailTemplate, lang: Language): RenderedMail {
  switch (template.name) {
    case 'verificationCode':
      return codeMail('verify', template.params.firstName, template.params.code, lang);
    case 'resetCode':
      return codeMail('reset', template.params.firstName, template.params.code, lang);
    case 'ssoLinkCode':
      return codeMail('link', template.params.firstName, template.params.code, lang, template.params.provider);
    case 'resetBlocked': {
      const fr = lang === 'fr';
      const hello = fr ? `Bonjour ${template.params.firstName},` : `Hello ${template.params.firstName},`;
      const lines = fr
        ? [
            'Des codes de réinitialisation erronés ont été saisis plusieurs fois pour votre compte Sutura : les nouveaux codes sont suspendus pour un temps.',
            'Votre mot de passe n’a pas changé et vous pouvez toujours vous connecter avec lui. Si vous n’êtes pas à l’origine de ces essais, vous n’avez rien à faire ; si le problème persiste, écrivez au support.',
          ]
        : [
            'Wrong password reset codes were entered several times for your Sutura account: new codes are paused for a while.',
            'Your password has not changed and you can still sign in with it. If you did not make these attempts, you need not do anything; if it goes on, write to support.',
          ];
      return {
        subject: fr ? 'Sutura : réinitialisation du mot de passe suspendue' : 'Sutura: password reset paused',
        text: `${hello}\n\n${lines.join('\n\n')}\n`,
        html: layout([hello, ...lines].map(escapeHtml), lang),
      };
    }
    case 'contact': {
      const p = template.params;
      const subject = `[Sutura contact] ${p.subject} — ${p.fromName}`;
      const text = `${p.fromName} <${p.fromEmail}> (user ${p.userId})\n\n${p.message}\n`;
      return {
        subject,
        text,
        html: layout(
          [escapeHtml(`${p.fromName} <${p.fromEmail}> (user ${p.userId})`), escapeHtml(p.message).replaceAll('\n', '<br>')],
          lang,
        ),
      };
    }
    case 'dataExportReady': {
      const p = template.params;
      const fr = lang === 'fr';
      const until = new Date(p.expiresAt).toLocaleDateString(fr ? 'fr-FR' : 'en-GB', { dateStyle: 'long', timeZone: 'UTC' });
      const megabytes = Math.max(1, Math.round(p.size / 1e6));
      const hello = fr ? `Bonjour ${p.firstName},` : `Hello ${p.firstName},`;
      const lines = fr
        ? [
            `La copie de vos données que vous avez demandée est prête (${megabytes} Mo, un fichier ZIP).`,
            `Pour la télécharger, connectez-vous à Sutura et ouvrez Mon compte → Mes données. Le lien est réservé à votre compte et valable jusqu’au ${until}.`,
            'Si vous n’êtes pas à l’origine de cette demande, changez votre mot de passe et écrivez au support.',
          ]
        : [
            `The copy of your data you asked for is ready (${megabytes} MB, one ZIP file).`,
            `To download it, sign in to Sutura and open My account → My data. The link is for your account only and valid until ${until}.`,
            'If you did not ask for it, change your password and write to support.',
          ];
      const open = fr ? 'Télécharger mes données' : 'Download my data';
      return {
        subject: fr ? 'Sutura : la copie de vos données est prête' : 'Sutura: the copy of your data is ready',
        text: `${hello}\n\n${lines.join('\n\n')}\n\n${open}: ${p.link}\n`,
        html: layout([...[hello, ...lines].map(escapeHtml), `<a href="${escapeHtml(p.link)}">${open}</a>`], lang),
      };
    }
    case 'erasureReceipt': {
      const p = template.params;
      const fr = lang === 'fr';
      const hello = fr ? `Bonjour ${p.firstName},` : `Hello ${p.firstName},`;
      const intro = fr
        ? 'Votre compte Sutura a été supprimé. Voici le reçu de cette suppression : ce qui a été effacé, et ce qui est conservé et pourquoi.'
        : 'Your Sutura account has been deleted. Here is the receipt of the deletion: what was erased, and what is kept and why.';
      return {
        subject: fr ? 'Sutura : reçu de la suppression de votre compte' : 'Sutura: receipt of your account deletion',
        text: `${hello}\n\n${intro}\n\n${p.receipt}\n`,
        html: layout(
          [escapeHtml(hello), escapeHtml(intro), `<pre style="white-space:pre-wrap;font-family:inherit">${escapeHtml(p.receipt)}</pre>`],
          lang,
        ),
      };
    }
    case 'notification': {
      const p = template.params;
      const open = lang === 'fr' ? 'Ouvrir Sutura' : 'Open Sutura';
      return {
        subject: p.subject,
        text: `${p.content}\n${p.link ? `\n${open}: ${p.link}\n` : ''}`,
        html: layout([escapeHtml(p.content), ...(p.link ? [`<a href="${escapeHtml(p.link)}">${open}</a>`] : [])], lang),
      };
    }
  }
}
