/*
 * Runs before `npm start` (and is what `.npmrc`'s engine-strict backs up for `npm install`).
 * Written in the JavaScript every Node.js version parses, so that an old one prints the one line
 * below instead of failing on the syntax of the TypeScript entry point.
 */
'use strict';

var REQUIRED = '22.18';

/** The line to print when `version` (such as "v20.20.2") cannot run Sutura, else null. */
function checkNode(version) {
  var parts = String(version).replace(/^v/, '').split('.');
  var major = Number(parts[0]);
  var minor = Number(parts[1]);
  // Node runs TypeScript files without flags from 22.18 on the 22 line, and from 23.6; and the
  // installed argon2 binding crashes older ones (22.12, 20) when it loads (see docs/architecture.md).
  var ok = major > 23 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18);
  if (ok) return null;
  return (
    'Sutura needs Node.js ' +
    REQUIRED +
    ' or newer (this is ' +
    version +
    '): install Node.js 24 LTS ' +
    'from https://nodejs.org/en/download (or your package manager), then run the command again.'
  );
}

module.exports = { checkNode: checkNode, REQUIRED: REQUIRED };

if (require.main === module) {
  var line = checkNode(process.version);
  if (line) {
    process.stderr.write(line + '\n');
    process.exit(1);
  }
}
