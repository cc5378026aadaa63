/**
 * Which auto-approve policy a session runs under: its own (from the create request, stored with
 * the session), else settings.json's `approval_policies` for its name, else for its spec id. The
 * patterns run on text the agent writes, so they are screened for catastrophic backtracking —
 * off the event loop first ({@link SessionPolicies.prepare}), then read from the verdicts.
 * @module
 */
import { screenRegexesInBackground, screenRegexFromCache } from '../catalog/redos.js';
import { ApprovalPolicyError, createApprovalPolicy, policyFieldPointer, type ApprovalPolicy } from './approval-policy.js';
import { DaemonError } from './errors.js';

/** Who a policy is for: the session's spec id and name, and its own policy if it has one. */
export interface PolicyOwner {
  specId: string | null;
  name: string | null;
  own: unknown;
}

export class SessionPolicies {
  readonly #defaults: Record<string, unknown> | undefined;

  /** `defaults`: settings.json's `approval_policies`, by session name or spec id. */
  constructor(defaults: Record<string, unknown> | undefined) {
    this.#defaults = defaults;
  }

  /** Screens the policy's patterns in recheck's agent process, so {@link resolve} only reads verdicts. */
  async prepare(owner: PolicyOwner): Promise<void> {
    const input = this.#inputOf(owner);
    if (input === undefined || input === null) return;
    const patterns: Array<{ source: string; flags: string }> = [];
    try {
      createApprovalPolicy(input, { screen: (source, flags) => { patterns.push({ source, flags }); return null; } });
    } catch {
      // Invalid before screening: resolve says why.
    }
    await screenRegexesInBackground(patterns);
  }

  /** The session's policy, or null for none. @throws DaemonError APPROVAL_POLICY_INVALID naming the field. */
  resolve(owner: PolicyOwner): ApprovalPolicy | null {
    const input = this.#inputOf(owner);
    if (input === undefined || input === null) return null;
    try {
      return createApprovalPolicy(input, { screen: screenRegexFromCache });
    } catch (error) {
      if (!(error instanceof ApprovalPolicyError)) throw error;
      if (owner.own === undefined || owner.own === null) {
        const key = owner.name && this.#defaults?.[owner.name] !== undefined ? owner.name : owner.specId;
        throw new DaemonError('APPROVAL_POLICY_INVALID', `settings.json approval_policies.${key}: ${error.message}; fix the settings file and restart the daemon`);
      }
      throw new DaemonError('APPROVAL_POLICY_INVALID', `policy: ${error.message}`, { path: policyFieldPointer(error.path) });
    }
  }

  #inputOf({ specId, name, own }: PolicyOwner): unknown {
    if (own !== undefined && own !== null) return own;
    return (name ? this.#defaults?.[name] : undefined) ?? (specId ? this.#defaults?.[specId] : undefined);
  }
}
