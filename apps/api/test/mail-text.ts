/** UTF-8 bytes written as `=XX` runs (quoted-printable and the Q encoding of headers). */
function decodeHexRuns(text: string): string {
  return text.replace(/(?:=[0-9A-F]{2})+/gi, (run) => Buffer.from(run.replaceAll('=', ''), 'hex').toString('utf8'));
}

/**
 * A raw message (an .eml file or what an SMTP server received) as readable text: headers
 * unfolded with their encoded words decoded, quoted-printable bodies decoded. Enough to assert
 * on what the person reads, without a MIME parser.
 */
export function readableMail(raw: string): string {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split);
  const headers = head
    .replace(/\r?\n[ \t]+/g, ' ')
    .replace(/(=\?[^?]+\?[QB]\?[^?]*\?=)\s+(?==\?)/gi, '$1')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeHexRuns(text.replaceAll('_', ' ')),
    );
  return headers + decodeHexRuns(body.replace(/=\r?\n/g, ''));
}

/** The value of one header of a readable mail. */
export function mailHeader(mail: string, name: string): string | undefined {
  return new RegExp(`^${name}: (.*)$`, 'mi').exec(mail)?.[1]?.trim();
}
