/**
 * @module
 * The server contract the handlers implement, from the generated
 * `generated/issues/openapi.server.ts` (contracts.md §3) and its types: one interface per
 * OpenAPI tag, one input object per operation, Gitea's option (request body) types.
 */
export type {
  AdminApi,
  AdminCreateUserInput,
  CreateCurrentUserRepoInput,
  CreateOrgRepoInput,
  IssueApi,
  IssueCreateIssueDependenciesInput,
  IssueCreateIssueInput,
  IssueCreateLabelInput,
  IssueCreateMilestoneInput,
  IssueEditIssueDeadlineInput,
  IssueEditIssueInput,
  IssueGetIssueInput,
  IssueGetMilestonesListInput,
  IssueListIssueDependenciesInput,
  IssueListIssuesInput,
  IssueListLabelsInput,
  IssueSearchIssuesInput,
  OrganizationApi,
  OrgCreateInput,
  RepoAddCollaboratorInput,
  RepoCreatePullRequestInput,
  RepoCreatePullReviewRequestsInput,
  RepositoryApi,
  UserApi,
  UserCreateTokenInput,
  UserGetCurrentInput,
} from '../../../generated/issues/openapi.server.js';
export type {
  AddCollaboratorOption,
  CreateAccessTokenOption,
  CreateIssueOption,
  CreateLabelOption,
  CreateMilestoneOption,
  CreateOrgOption,
  CreatePullRequestOption,
  CreateRepoOption,
  CreateUserOption,
  EditDeadlineOption,
  EditIssueOption,
  IssueMeta,
  PullReviewRequestOptions,
} from '../../../generated/issues/openapi.types.js';
