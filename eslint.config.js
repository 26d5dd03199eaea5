import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The modules a web feature lends to other features; everything else in a feature is its own. */
const FEATURE_ENTRY_POINTS = [
  'account/CooldownDialog',
  'browser/BrowserHost',
  'browser/DetailPanel',
  'browser/FileCard',
  'browser/FileGrid',
  'browser/FileRow',
  'browser/FileThumbnail',
  'browser/FilesSection',
  'browser/FolderCard',
  'browser/SharedBadge',
  'browser/ViewControls',
  'browser/useInfinitePaging',
  'context-menu/item-menu-extras',
  'context-menu/useItemMenu',
  'format/file-name',
  'format/format-date',
  'format/format-size',
  'invitation/InvitationList',
  'invitation/InviteDialog',
  'invitation/invitation-errors',
  'item-shares/PeopleWithAccess',
  'item-shares/share-messages',
  'item-shares/shared-access',
  'item-shares/useFolderAccess',
  'layout/Header',
  'layout/sections',
  'media/MediaItem',
  'media/live-motion',
  'move/MovePopup',
  'notifications/progress-toast',
  'notifications/toast',
  'organize/OrganizeDialogs',
  'organize/organize.api',
  'organize/useCreateFolderAction',
  'organize/useOrganizeActions',
  'people/PeopleSettingsSection',
  'popups/FileDetailsBody',
  'popups/FileDetailsPopup',
  'popups/PopupCard',
  'popups/PopupHost',
  'popups/file-format',
  'popups/file-messages',
  'popups/useSlideClose',
  'preview/FilePreviewPopup',
  'preview/preview-siblings',
  'search/SearchResults',
  'search/useDebouncedValue',
  'search/useSearchSuggestions',
  'selection/MultiSelectBar',
  'selection/useItemInteractions',
  'selection/useSelectionAccess',
  'session/RequireAuth',
  'session/login-flags',
  'session/useLogout',
  'session/useSession',
  'settings/CopyField',
  'settings/SettingRow',
  'share-links/ItemLinks',
  'share-links/LinkOptionsDialog',
  'sharing/SharePopup',
  'sharing/useChangeLink',
  'two-factor/RecoveryCodesList',
  'two-factor/TwoFactorEnrol',
  'two-factor/two-factor-errors',
  'upload/ResumeOffers',
  'upload/UploadDropZone',
  'upload/UploadPanel',
  'upload/useUploadPickers',
  'upload/useVersionUpload',
  'versions/FileVersions',
  'versions/RestoreAsOfDialog',
];
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'artifacts/**', '.test-results/**', 'server/eval/.real-media/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.mjs', 'server/**', 'e2e/**', 'scripts/**'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['common/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@nimbus/server*', '@nimbus/web*', '**/server/**', '**/web/**', 'node:*'] }] },
  },
  {
    files: ['web/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@nimbus/server*', '**/server/**', 'node:*'] }] },
  },
  {
    // The drive API, item types and fixtures are shared from api/ and test/; a feature uses another
    // only through the modules it lends out, so features never import each other's internals.
    files: ['web/src/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@nimbus/server*', '**/server/**', 'node:*'] },
            {
              regex: `^\\.\\./(?!(?:${FEATURE_ENTRY_POINTS.map(escapeRegex).join('|')})$)[^./][^/]*/`,
              message:
                'Import another feature only through an entry point listed in eslint.config.js, or move the piece to components/ or lib/.',
            },
            { regex: '^(\\.\\./){2,}features/', message: 'Import another feature as ../<feature>/<entry point>.' },
          ],
        },
      ],
    },
  },
  {
    files: ['server/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@nimbus/web*', '**/web/src/**'] }] },
  },
  {
    // Routes and WebDAV reach the database and the blob stores only through services, which also
    // hand out the row types they return.
    files: ['server/src/http/**', 'server/src/dav/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@nimbus/web*', '**/web/src/**'] },
            { regex: '^(\\.\\./)+(db|storage)(/|$)', message: 'http/ and dav/ use services/, never db/ or storage/.' },
          ],
        },
      ],
    },
  },
  {
    files: ['scripts/**', 'e2e/**', '**/*.config.*', 'web/bench/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
