import {
  expected,
  listsTheFileWhenVisible,
  type Case,
  type MatrixWorld,
  type Persona,
} from './permission-matrix.rules.js';

/** A permission case for every query and mutation of the library and administration API. */
export const graphqlCases = (w: MatrixWorld): Record<string, Case> => ({
  'query audioFiles': {
    rule: 'signedIn',
    run: (s) => w.gql('{ audioFiles(limit: 100) { total items { id } } }', {}, s),
    check: listsTheFileWhenVisible(w),
  },
  'query audioFile': {
    rule: 'visibleFile',
    run: (s) =>
      w.gql('query ($id: ID!) { audioFile(id: $id) { id chapters { id } coverImagePath } }', { id: w.fileId }, s),
  },
  'query checkpoints': {
    rule: 'visibleFile',
    run: (s) => w.gql('query ($id: ID!) { checkpoints(fileId: $id) { id userId } }', { id: w.fileId }, s),
  },
  'mutation createCheckpoint': {
    rule: 'visibleFile',
    run: (s) =>
      w.gql(
        'mutation ($i: CreateCheckpointInput!) { createCheckpoint(input: $i) { id } }',
        { i: { fileId: w.fileId, timestamp: 3, name: 'g' } },
        s,
      ),
  },
  'mutation deleteCheckpoint': {
    rule: 'owner',
    run: async (s) => w.gql('mutation ($id: ID!) { deleteCheckpoint(id: $id) }', { id: await w.fresh.checkpoint() }, s),
  },
  'query drmStatus': {
    rule: 'visibleFile',
    run: (s) => w.gql('query ($id: ID!) { drmStatus(fileId: $id) { fileId } }', { id: w.fileId }, s),
  },
  'mutation createStreamSession': {
    rule: 'visibleFile',
    run: (s) => w.gql('mutation ($id: ID!) { createStreamSession(fileId: $id) { duration } }', { id: w.fileId }, s),
  },
  'mutation createSignedUrl': {
    rule: 'visibleFile',
    run: (s) =>
      w.gql(
        'mutation ($id: ID!) { createSignedUrl(fileId: $id, input: { startTime: 0 }) { expiresAt } }',
        { id: w.fileId },
        s,
      ),
  },
  'query chapters': {
    rule: 'visibleFile',
    run: (s) => w.gql('query ($id: ID!) { chapters(fileId: $id) { id } }', { id: w.fileId }, s),
  },
  'query chapterStatus': {
    rule: 'visibleFile',
    run: (s) => w.gql('query ($id: ID!) { chapterStatus(fileId: $id) { pending } }', { id: w.fileId }, s),
  },
  'query continueListening': {
    rule: 'signedIn',
    run: (s) => w.gql('{ continueListening { id progress { position } } }', {}, s),
  },
  'mutation saveProgress': {
    rule: 'visibleFile',
    run: (s) =>
      w.gql(
        'mutation ($id: ID!) { saveProgress(fileId: $id, input: { position: 5 }) { position } }',
        { id: w.fileId },
        s,
      ),
  },
  'query adminUsers': { rule: 'admin', run: (s) => w.gql('{ adminUsers { total items { id sessionCount } } }', {}, s) },
  'query userCount': { rule: 'admin', run: (s) => w.gql('{ userCount }', {}, s) },
  'query adminUser': {
    rule: 'admin',
    run: (s) => w.gql('query ($id: ID!) { adminUser(id: $id) { id } }', { id: w.liveUserId }, s),
  },
  'mutation createUser': {
    rule: 'admin',
    run: (s) =>
      w.gql(
        'mutation ($i: CreateUserInput!) { createUser(input: $i) { id } }',
        { i: { name: 'G', email: w.fresh.email(), password: 'long-enough' } },
        s,
      ),
  },
  'mutation updateUser': {
    rule: 'admin',
    run: async (s) =>
      w.gql(
        'mutation ($id: ID!) { updateUser(id: $id, input: { name: "R" }) { id } }',
        { id: await w.fresh.user() },
        s,
      ),
  },
  'mutation deleteUser': {
    rule: 'admin',
    run: async (s) => w.gql('mutation ($id: ID!) { deleteUser(id: $id) }', { id: await w.fresh.user() }, s),
  },
  'mutation unlockUser': {
    rule: 'admin',
    run: async (s) => w.gql('mutation ($id: ID!) { unlockUser(userId: $id) { id } }', { id: await w.fresh.user() }, s),
  },
  'query userSessions': {
    rule: 'admin',
    run: (s) => w.gql('query ($id: ID!) { userSessions(userId: $id) { id } }', { id: w.liveUserId }, s),
  },
  'mutation terminateUserSession': {
    rule: 'admin',
    run: async (s) => {
      const target = await w.fresh.session();
      return w.gql(
        'mutation ($u: ID!, $s: ID!) { terminateUserSession(userId: $u, sessionId: $s) }',
        { u: target.userId, s: target.sessionId },
        s,
      );
    },
  },
  'query auditLog': { rule: 'admin', run: (s) => w.gql('{ auditLog { total } }', {}, s) },
  'query adminFiles': {
    rule: 'admin',
    run: (s) => w.gql('{ adminFiles(status: PRIVATE) { total items { id fileAccesses { id } } } }', {}, s),
  },
  'query adminFile': {
    rule: 'admin',
    run: (s) => w.gql('query ($id: ID!) { adminFile(id: $id) { id } }', { id: w.fileId }, s),
  },
  'mutation updateFile': {
    rule: 'admin',
    run: async (s) =>
      w.gql(
        'mutation ($id: ID!) { updateFile(id: $id, input: { isPublic: false }) { id } }',
        { id: await w.fresh.file() },
        s,
      ),
  },
  'mutation deleteFile': {
    rule: 'admin',
    run: async (s) => w.gql('mutation ($id: ID!) { deleteFile(id: $id) }', { id: await w.fresh.file() }, s),
  },
  'query fileAccessList': {
    rule: 'admin',
    run: (s) =>
      w.gql(
        'query ($id: ID!) { fileAccessList(fileId: $id) { grants { status } allUsers { id } } }',
        { id: w.fileId },
        s,
      ),
  },
  'mutation grantAccess': {
    rule: 'admin',
    run: async (s) =>
      w.gql(
        'mutation ($i: GrantAccessInput!) { grantAccess(input: $i) { id } }',
        { i: { userId: await w.fresh.user(), fileId: await w.fresh.file() } },
        s,
      ),
  },
  'mutation revokeAccess': {
    rule: 'admin',
    run: async (s) =>
      w.gql('mutation ($id: ID!) { revokeAccess(id: $id) { status } }', { id: await w.fresh.grant() }, s),
  },
  'query dashboardStats': { rule: 'admin', run: (s) => w.gql('{ dashboardStats { fileCount } }', {}, s) },
});

/** Field-level rules that the operation list cannot see. */
export const fieldCases = (w: MatrixWorld): Record<string, Case> => ({
  'AudioFile.fileAccesses': {
    rule: 'admin',
    // The live-grant user may see the file, but not who else may.
    run: (s) => w.gql('query ($id: ID!) { audioFile(id: $id) { fileAccesses { id } } }', { id: w.fileId }, s),
  },
});
// For callers who cannot see the file at all, the file itself answers first.
export const fieldExpected: Record<Persona, string> = {
  ...expected.admin,
  noGrant: 'NOT_FOUND',
  expiredGrant: 'NOT_FOUND',
  revokedGrant: 'NOT_FOUND',
};
