import type { NewNodeCredential, NodeCredential } from '@cloud/sdk/browser';

// A node's named credentials, as the nodes API gives them: Basic (a user name, which is not a
// secret, and a password) or a URL token (the token is the first path segment of the node's
// addresses). The secret is in the create and rotate answers only.

export type CredentialKind = NodeCredential['kind'];

/** A credential as listed: never its secret. */
export type CredentialSummary = NodeCredential;

/** A credential with its secret, from a create or rotate answer: the only time it is shown. */
export type NewCredential = NewNodeCredential;

/** The kinds in the person's words. */
export const KIND_NAMES: Record<CredentialKind, string> = { token: 'URL token', basic: 'Basic user and password' };
