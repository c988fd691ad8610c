/**
 * @module
 * The handler classes, one per OpenAPI tag, implementing the generated contract interfaces.
 * Each method screens its input (`guardInput`) and delegates to a function in the module of its
 * concern.
 */
import type { Context } from 'hono';
import type * as C from '../contract-shapes.js';
import * as accounts from './accounts.js';
import * as deps from './dependencies.js';
import { guardInput } from './input-guard.js';
import * as read from './issue-read.js';
import * as write from './issue-write.js';
import * as lm from './labels-milestones.js';
import * as pulls from './pulls.js';
import type { IssuesServices } from './services.js';

export type { IssuesServices } from './services.js';

const NO_PATH_KEYS: ReadonlySet<string> = new Set();

/**
 * Tag `issue`: the six issue operations plus labels, milestones and dependencies.
 *
 * @example
 * const issues = new IssueHandlers({ store, config, events });
 */
export class IssueHandlers implements C.IssueApi {
  constructor(private readonly s: IssuesServices) {}
  issueSearchIssues(input: C.IssueSearchIssuesInput, ctx: Context) {
    return read.searchIssues(this.s, guardInput(input, NO_PATH_KEYS), ctx);
  }
  issueListIssues(input: C.IssueListIssuesInput, ctx: Context) {
    return read.listIssues(this.s, guardInput(input), ctx);
  }
  issueGetIssue(input: C.IssueGetIssueInput, ctx: Context) {
    return read.getIssue(this.s, guardInput(input), ctx);
  }
  issueCreateIssue(input: C.IssueCreateIssueInput, ctx: Context) {
    return write.createIssue(this.s, guardInput(input), ctx);
  }
  issueEditIssue(input: C.IssueEditIssueInput, ctx: Context) {
    return write.editIssue(this.s, guardInput(input), ctx);
  }
  issueEditIssueDeadline(input: C.IssueEditIssueDeadlineInput, ctx: Context) {
    return write.editIssueDeadline(this.s, guardInput(input), ctx);
  }
  issueCreateLabel(input: C.IssueCreateLabelInput, ctx: Context) {
    return lm.createLabel(this.s, guardInput(input), ctx);
  }
  issueListLabels(input: C.IssueListLabelsInput, ctx: Context) {
    return lm.listLabels(this.s, guardInput(input), ctx);
  }
  issueCreateMilestone(input: C.IssueCreateMilestoneInput, ctx: Context) {
    return lm.createMilestone(this.s, guardInput(input), ctx);
  }
  issueGetMilestonesList(input: C.IssueGetMilestonesListInput, ctx: Context) {
    return lm.listMilestones(this.s, guardInput(input), ctx);
  }
  issueCreateIssueDependencies(input: C.IssueCreateIssueDependenciesInput, ctx: Context) {
    return deps.createDependency(this.s, guardInput(input), ctx);
  }
  issueListIssueDependencies(input: C.IssueListIssueDependenciesInput, ctx: Context) {
    return deps.listDependencies(this.s, guardInput(input), ctx);
  }
}

/** Tag `repository`: repositories of the caller, collaborators, pull requests. */
export class RepositoryHandlers implements C.RepositoryApi {
  constructor(private readonly s: IssuesServices) {}
  createCurrentUserRepo(input: C.CreateCurrentUserRepoInput, ctx: Context) {
    return accounts.createCurrentUserRepo(this.s, guardInput(input), ctx);
  }
  repoAddCollaborator(input: C.RepoAddCollaboratorInput, ctx: Context) {
    return accounts.repoAddCollaborator(this.s, guardInput(input), ctx);
  }
  repoCreatePullRequest(input: C.RepoCreatePullRequestInput, ctx: Context) {
    return pulls.createPullRequest(this.s, guardInput(input), ctx);
  }
  repoCreatePullReviewRequests(input: C.RepoCreatePullReviewRequestsInput, ctx: Context) {
    return pulls.createReviewRequests(this.s, guardInput(input), ctx);
  }
}

/** Tag `admin`. */
export class AdminHandlers implements C.AdminApi {
  constructor(private readonly s: IssuesServices) {}
  adminCreateUser(input: C.AdminCreateUserInput, ctx: Context) {
    return accounts.adminCreateUser(this.s, guardInput(input), ctx);
  }
}

/** Tag `user`. */
export class UserHandlers implements C.UserApi {
  constructor(private readonly s: IssuesServices) {}
  userCreateToken(input: C.UserCreateTokenInput, ctx: Context) {
    return accounts.userCreateToken(this.s, guardInput(input), ctx);
  }
  userGetCurrent(_input: C.UserGetCurrentInput, ctx: Context) {
    return accounts.userGetCurrent(this.s, ctx);
  }
}

/** Tag `organization`. */
export class OrganizationHandlers implements C.OrganizationApi {
  constructor(private readonly s: IssuesServices) {}
  orgCreate(input: C.OrgCreateInput, ctx: Context) {
    return accounts.orgCreate(this.s, guardInput(input), ctx);
  }
  createOrgRepo(input: C.CreateOrgRepoInput, ctx: Context) {
    return accounts.createOrgRepo(this.s, guardInput(input), ctx);
  }
}
