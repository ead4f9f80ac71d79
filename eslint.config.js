import path from 'node:path';

import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import prettier from 'eslint-plugin-prettier/recommended';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Import direction inside web/src (docs/architecture.md, Folders): shared code (components, lib, config) imports
 * no feature and not the app; a feature imports neither another feature nor the app.
 * Resolves relative and `@/` specifiers, so a deep `../../x` cannot slip past.
 */
const webSrc = path.join(import.meta.dirname, 'web', 'src');
const webBoundaries = {
  rules: {
    'import-direction': {
      meta: {
        type: 'problem',
        schema: [],
        messages: {
          crossFeature:
            'Features never import each other ("{{from}}" imports feature "{{to}}"). Move shared code to components/ or lib/.',
          featureToApp: 'Features do not import the app layer.',
          sharedToUpper: 'Shared code ({{layer}}/) imports no features and not the app.',
        },
      },
      create(context) {
        const file = context.filename;
        const area = (absolute) => {
          const rel = path.relative(webSrc, absolute);
          if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
          const [layer, name] = rel.split(path.sep);
          return { layer, name };
        };
        const from = area(file);
        if (!from) return {};
        const check = (node, source) => {
          if (typeof source !== 'string') return;
          let target;
          if (source.startsWith('@/')) target = path.join(webSrc, source.slice(2));
          else if (source.startsWith('.')) target = path.resolve(path.dirname(file), source);
          else return;
          const to = area(target);
          if (!to) return;
          if (from.layer === 'features') {
            if (to.layer === 'app') context.report({ node, messageId: 'featureToApp' });
            else if (to.layer === 'features' && to.name !== from.name)
              context.report({ node, messageId: 'crossFeature', data: { from: from.name, to: to.name } });
          } else if (['components', 'lib', 'config'].includes(from.layer)) {
            if (to.layer === 'features' || to.layer === 'app')
              context.report({ node, messageId: 'sharedToUpper', data: { layer: from.layer } });
          }
        };
        const fromSource = (node) => node.source && check(node.source, node.source.value);
        return {
          ImportDeclaration: fromSource,
          ExportNamedDeclaration: fromSource,
          ExportAllDeclaration: fromSource,
          ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
        };
      },
    },
  },
};

/** The one lint and format configuration of the repository (Prettier runs as a lint rule). */
export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'coverage/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name='only']",
          message: 'No focused tests.',
        },
      ],
    },
  },
  {
    // No import circles anywhere; the wiring files (app.ts, service.ts, jobs.ts, main.ts, index.ts) are
    // imported only by each other, so even a type-only import cannot run back up from a use case or a route.
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/internal-regex': '^@gpt/',
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'web/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './services/{auth,billing,bot,chat-history,content,metrics}/src/*/**',
              from: './services/{auth,billing,bot,chat-history,content,metrics}/src/{app,service,jobs,main,index}.ts',
              message: "Import the service's dependencies from deps.ts, never from its wiring files.",
            },
            {
              target: './services/telegram-sandbox',
              from: ['./services/{auth,billing,bot,chat-history,content,metrics}/**', './{gateway,web,deploy}/**'],
              message: 'The Telegram sandbox stands on its own (docs/bot.md): it imports no service of the product.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['services/*/src/**/*.ts', 'gateway/src/**/*.ts'],
    ignores: ['**/config.ts', 'services/kit/src/config/**', 'services/kit/src/testing/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through the config schema (config.ts).' },
      ],
    },
  },
  {
    // Route paths are declared once, in the contracts' apiRoutes (docs/architecture.md, Adding a route).
    files: ['services/*/src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['Literal[value=/^\\/api(\\/|$)/]', 'TemplateLiteral[quasis.0.value.raw=/^\\/api(\\/|$)/]'].map(
          (selector) => ({
            selector,
            message:
              "Route paths live in the contracts' apiRoutes (@gpt/contracts/routes): call a route with apiPath(id, params); a service serves one with contractRouter.",
          }),
        ),
      ],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, web: webBoundaries },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'web/import-direction': 'error',
    },
  },
  prettier,
  {
    rules: {
      'prettier/prettier': ['error', { singleQuote: true, printWidth: 120, trailingComma: 'all' }],
    },
  },
);
