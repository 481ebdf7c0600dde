import path from 'node:path';

/**
 * A feature of the web app (apps/web/src/features/<name>/) imports nothing from another feature:
 * what two features share lives in components/ or lib/. Imports by the `@/` alias and relative
 * ones are both resolved; `app/` (the router, the shell) may import every feature.
 */
const FEATURES = `apps${path.sep}web${path.sep}src${path.sep}features${path.sep}`;
const SRC = `apps${path.sep}web${path.sep}src${path.sep}`;

/** The feature a file or module path lies in, or null. */
function featureOf(file) {
  const at = file.lastIndexOf(FEATURES);
  if (at < 0) return null;
  return file.slice(at + FEATURES.length).split(path.sep)[0] || null;
}

/** @type {import('eslint').Rule.RuleModule} */
const noCrossFeatureImports = {
  meta: {
    type: 'problem',
    docs: { description: 'forbid a web feature from importing another feature' },
    messages: {
      crossFeature: "The feature '{{from}}' may not import from the feature '{{to}}': move what they share to components/ or lib/.",
    },
    schema: [],
  },
  create(context) {
    const filename = path.normalize(context.filename);
    const from = featureOf(filename);
    if (!from) return {};
    const root = filename.slice(0, filename.lastIndexOf(SRC) + SRC.length);

    function check(node, source) {
      if (typeof source !== 'string') return;
      let target;
      if (source.startsWith('@/')) target = path.join(root, ...source.slice(2).split('/'));
      else if (source.startsWith('.')) target = path.resolve(path.dirname(filename), source);
      else return;
      const to = featureOf(`${path.normalize(target)}${path.sep}`);
      if (to && to !== from) context.report({ node, messageId: 'crossFeature', data: { from, to } });
    }

    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};

export default { rules: { 'no-cross-feature-imports': noCrossFeatureImports } };
