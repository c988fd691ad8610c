/**
 * @module The search planner of the SQL store: `searchIssues` resolves label and milestone names,
 * then picks how to find a page and its total — one pass with a window count, a count from the
 * full-text index, or relevance paged tier by tier — and loads the page's rows. The conditions and
 * orders it combines are `issue-conditions.ts`.
 */

import { keywordWords, normaliseKeyword } from '../keyword.js';
import type { IssueFilter, IssuePage, OpenClosed } from '../store.js';
import { planEachTime, raw, type SqlFragment, sql } from './fragment.js';
import { FILTERED_COLUMNS, issueConditions, issueOrder, type ResolvedIssueFilter } from './issue-conditions.js';
import { IssueRowsAggregate } from './issue-rows.js';
import { type DbRow, num } from './row-mappers.js';
import type { RepoSelection } from './sql-dialect.js';
import { unique } from './sql-session.js';

const DEFAULT_LIMIT = 30;
/** Relevance pages ending beyond this many rows use the single ranked query (see `tieredRelevance`). */
const MAX_TIERED_END = 1000;
/**
 * How much cheaper a walked index entry is than a collected match, with a margin for the estimate
 * of the rows walked (see `walkPaysOff`).
 */
const WALK_ADVANTAGE = 4;
/**
 * The least share of a keyword's matches expected in titles, as its inverse, and the largest window
 * walked for them (see `titleMatchesInWindow`): past it, collecting the title matches is cheaper.
 */
const TITLE_WINDOW_MARGIN = 8;
const MAX_TITLE_WINDOW = 3000;
/** The tiers' order: newest first, ties broken by id. */
const NEWEST_FIRST = raw('i.created_unix DESC, i.id DESC');
/** The most repositories a count from the full-text index names (see `keywordCountQuery`). */
const MAX_INDEX_COUNT_REPOS = 32;

/**
 * A search statement, marked `planEachTime` when it has a keyword: how many issues a word matches
 * ranges from a handful to most of them, and each wants its own plan.
 */
function planFor(filter: ResolvedIssueFilter, query: SqlFragment): SqlFragment {
  return filter.words ? planEachTime(query) : query;
}

/**
 * The search of the issue aggregate.
 *
 * @example
 * const page = await new IssueSearch(session).searchIssues({ repoIds: [repo.id], keyword: 'crash', limit: 20 });
 */
export class IssueSearch extends IssueRowsAggregate {
  /** Label names → ids among the searched repositories' labels and their owner organizations'. */
  private async resolveLabels(filter: IssueFilter): Promise<number[] | undefined> {
    const names = filter.labels?.map((name) => name.trim()).filter(Boolean) ?? [];
    const ids = new Set(filter.labelIds ?? []);
    if (names.length > 0) {
      const rows = await this.db.all<DbRow>(sql`
        SELECT l.id FROM labels l WHERE l.name IN ${this.in([...new Set(names)])}
          AND (l.repo_id IN ${this.in(filter.repoIds)}
            OR l.org_id IN (SELECT r.owner_id FROM repos r WHERE r.id IN ${this.in(filter.repoIds)}))`);
      for (const row of rows) ids.add(num(row.id));
    }
    if (ids.size === 0) return filter.labelIds?.length ? [] : undefined;
    return [...ids];
  }

  /** Milestone names (and, when allowed, ids) → ids within the searched repositories. */
  private async resolveMilestones(filter: IssueFilter): Promise<number[] | undefined> {
    const values = filter.milestones?.map((value) => value.trim()).filter(Boolean) ?? [];
    if (values.length === 0) return undefined;
    const byName = await this.db.all<DbRow>(
      sql`SELECT id, title FROM milestones WHERE repo_id IN ${this.in(filter.repoIds)} AND title IN ${this.in([...new Set(values)])}`,
    );
    const ids = new Set(byName.map((row) => num(row.id)));
    if (filter.milestoneIdsAllowed) {
      const titles = new Set(byName.map((row) => String(row.title)));
      const numeric = values.filter((value) => !titles.has(value) && /^\d{1,15}$/.test(value)).map(Number);
      if (numeric.length > 0) {
        const byId = await this.db.all<DbRow>(
          sql`SELECT id FROM milestones WHERE repo_id IN ${this.in(filter.repoIds)} AND id IN ${this.in(numeric)}`,
        );
        for (const row of byId) ids.add(num(row.id));
      }
    }
    return ids.size === 0 ? undefined : [...ids];
  }

  async searchIssues(filter: IssueFilter): Promise<IssuePage> {
    if (filter.repoIds.length === 0) return { items: [], total: 0 };
    const keyword = normaliseKeyword(filter.keyword);
    const words = keyword === undefined ? undefined : keywordWords(keyword);
    if (words && words.length === 0) return { items: [], total: 0 };
    const [resolvedLabelIds, resolvedMilestoneIds] = this.inTransaction
      ? [await this.resolveLabels(filter), await this.resolveMilestones(filter)]
      : await Promise.all([this.resolveLabels(filter), this.resolveMilestones(filter)]);
    const resolved: ResolvedIssueFilter = { ...filter, repoIds: unique(filter.repoIds), resolvedLabelIds, resolvedMilestoneIds, words };
    const where = issueConditions(resolved, this.dialect);
    const limit = Math.max(1, Math.floor(filter.limit ?? DEFAULT_LIMIT));
    const page = Math.max(1, Math.floor(filter.page ?? 1));
    const offset = (page - 1) * limit;
    const countAll = async () => {
      const fromIndex = await this.keywordCountQuery(resolved);
      return num((await this.first(fromIndex ?? planFor(resolved, sql`SELECT COUNT(*) AS n FROM issues i WHERE ${where}`)))!.n);
    };
    // Absurd page numbers: nothing to fetch, and no huge OFFSET to scan.
    if (!Number.isSafeInteger(offset) || offset > Number.MAX_SAFE_INTEGER - limit) return { items: [], total: await countAll() };
    let ids: number[];
    let total: number;
    const titleTier = this.tieredRelevance(resolved, offset + limit);
    if (titleTier) {
      total = await countAll();
      if (total === 0 || offset >= total) return { items: [], total };
      ids = await this.pageByTier(resolved, where, titleTier, offset, limit, total);
    } else {
      const hits = await this.db.all<DbRow>(planFor(resolved, this.pageWithTotal(resolved, where, limit, offset)));
      if (hits.length === 0) return { items: [], total: offset === 0 ? 0 : await countAll() };
      ids = hits.map((hit) => num(hit.id));
      total = num(hits[0]!.total);
    }
    const rows = await this.db.all<DbRow>(sql`SELECT ${this.issueColumns} FROM issues i WHERE i.id IN ${this.in(ids)}`);
    const position = new Map(ids.map((id, i) => [id, i]));
    rows.sort((a, b) => position.get(num(a.id))! - position.get(num(b.id))!);
    return { items: this.hydrate(rows), total };
  }

  /**
   * One pass that finds a page's ids and the total together. It reads only indexed columns (on
   * SQLite the covering index `issues_search_cover`), so wide rows are loaded for the page alone.
   * Where the dialect asks for it (`rankBeforeTotal`), a keyword rank is computed first, in a
   * materialized step, so that the rows the total's window holds carry the rank rather than what it
   * is computed from: PostgreSQL's `search_vector`, which spilled them to disk
   * (docs/storage.md, "What the plans were measured to save").
   */
  private pageWithTotal(filter: ResolvedIssueFilter, where: SqlFragment, limit: number, offset: number): SqlFragment {
    if (this.dialect.rankBeforeTotal && filter.sort === 'relevance' && filter.words) {
      const ranked = sql`SELECT i.id, i.repo_id, i.created_unix, ${this.dialect.keywordRank(filter.words)} AS rank
        FROM issues i WHERE ${where}`;
      const order = issueOrder(filter, this.dialect, raw('i.rank'));
      return sql`WITH ranked AS MATERIALIZED (${ranked})
        SELECT i.id, COUNT(*) OVER () AS total FROM ranked i
        ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`;
    }
    return sql`SELECT i.id, COUNT(*) OVER () AS total FROM issues i
      WHERE ${where}
      ORDER BY ${issueOrder(filter, this.dialect)} LIMIT ${limit} OFFSET ${offset}`;
  }

  /**
   * The dialect's count from the full-text index alone, when it has one and the filter is just the
   * keyword, the state and the repositories, given as the shorter of the repositories searched and
   * those left out (anonymous callers: the few private ones). Past `MAX_INDEX_COUNT_REPOS` the
   * index merges too many posting lists and the SQL count is cheaper.
   */
  private async keywordCountQuery(filter: ResolvedIssueFilter): Promise<SqlFragment | undefined> {
    const keywordCount = this.dialect.keywordCount;
    if (!keywordCount || !filter.words) return undefined;
    const filtered =
      (filter.type ?? 'all') !== 'all' ||
      filter.resolvedLabelIds !== undefined ||
      filter.resolvedMilestoneIds !== undefined ||
      filter.since !== undefined ||
      filter.before !== undefined ||
      filter.posterId !== undefined ||
      filter.assigneeId !== undefined ||
      filter.mentionedId !== undefined ||
      filter.reviewRequestedId !== undefined;
    if (filtered) return undefined;
    const searched = new Set(filter.repoIds);
    let repos: RepoSelection = { only: [...searched] };
    if (searched.size > MAX_INDEX_COUNT_REPOS) {
      const all = (await this.db.all<DbRow>(sql`SELECT id FROM repos`)).map((row) => num(row.id));
      const except = all.filter((id) => !searched.has(id));
      if (except.length > MAX_INDEX_COUNT_REPOS) return undefined;
      repos = { except };
    }
    return keywordCount(filter.words, filter.state ?? 'open', repos);
  }

  /**
   * The title-tier condition when a relevance search can be paged tier by tier: the dialect ranks
   * in two tiers, no priority repository reorders them, and the page is near the front (deep pages
   * would fetch `offset + limit` ids per tier; the single ranked query serves them better).
   */
  private tieredRelevance(filter: ResolvedIssueFilter, end: number): SqlFragment | undefined {
    if (filter.sort !== 'relevance' || !filter.words || filter.priorityRepoId !== undefined || end > MAX_TIERED_END) return undefined;
    return this.dialect.keywordTitleTier?.(filter.words);
  }

  /**
   * One page of a two-tier relevance order (title matches newest first, then body-only matches
   * newest first), exactly as `ORDER BY rank, created_unix DESC, id DESC` would give it. Each tier
   * is its own query with a `LIMIT` and no rank to compute; the body-only tier, asked only when the
   * title matches run out, walks the index newest first when that is cheaper (`walkPaysOff`).
   * `total` is the number of matches (both tiers).
   */
  private async pageByTier(
    filter: ResolvedIssueFilter,
    where: SqlFragment,
    titleTier: SqlFragment,
    offset: number,
    limit: number,
    total: number,
  ): Promise<number[]> {
    // A title holding every word is a match of the whole keyword, so the title tier needs no
    // keyword condition beside its own: the small title match set drives the query alone.
    const others = issueConditions({ ...filter, words: undefined }, this.dialect);
    const titled =
      (await this.titleMatchesInWindow(filter, others, titleTier, offset + limit, total)) ??
      (await this.db.all<DbRow>(
        planFor(filter, sql`SELECT i.id FROM issues i WHERE ${others} AND ${titleTier} ORDER BY ${NEWEST_FIRST} LIMIT ${offset + limit}`),
      ));
    const ids = titled.slice(offset).map((row) => num(row.id));
    // Fewer title matches than the page reaches: the title tier is exhausted and has exactly
    // `titled.length` rows; the rest of the page comes from the body-only tier.
    if (titled.length < offset + limit) {
      const skip = Math.max(0, offset - titled.length);
      const keywordFilter = this.dialect.keywordFilter;
      const matching =
        keywordFilter && (await this.walkPaysOff(filter, total, skip + limit - ids.length))
          ? sql`${others} AND ${keywordFilter(filter.words!)}`
          : where;
      const body = await this.db.all<DbRow>(
        planFor(
          filter,
          sql`SELECT i.id FROM issues i WHERE ${matching} AND NOT (${titleTier})
            ORDER BY ${NEWEST_FIRST} LIMIT ${limit - ids.length} OFFSET ${skip}`,
        ),
      );
      ids.push(...body.map((row) => num(row.id)));
    }
    return ids;
  }

  /**
   * The first `needed` title matches newest first, read from a window of the state's newest issues
   * (in every repository) when the keyword is common enough for the window to hold them; `undefined`
   * when it is not, or when the window held fewer (the caller then collects every title match and
   * sorts them). Any match outside the window is older than every issue in it, so a window holding
   * `needed` matches holds exactly the first `needed` of the whole order. The window is sized
   * expecting the matches to be as dense among the state's issues as `total` says, and at least
   * `1 / TITLE_WINDOW_MARGIN` of them in titles. A walked index entry costs about a third of a
   * collected title match (docs/storage.md, "What the plans were measured to save").
   */
  private async titleMatchesInWindow(
    filter: ResolvedIssueFilter,
    others: SqlFragment,
    titleTier: SqlFragment,
    needed: number,
    total: number,
  ): Promise<DbRow[] | undefined> {
    const state = filter.state ?? 'open';
    if (state === 'all') return undefined;
    const size = Math.ceil((needed * (await this.issuesInState(state)) * TITLE_WINDOW_MARGIN) / total);
    if (size > MAX_TITLE_WINDOW) return undefined;
    const window = sql`SELECT ${FILTERED_COLUMNS} FROM issues i
      WHERE i.is_closed = ${state === 'closed'}
      ORDER BY ${NEWEST_FIRST} LIMIT ${size}`;
    const rows = await this.db.all<DbRow>(
      planFor(filter, sql`SELECT i.id FROM (${window}) i WHERE ${others} AND ${titleTier} ORDER BY ${NEWEST_FIRST} LIMIT ${needed}`),
    );
    return rows.length === needed ? rows : undefined;
  }

  /** How many issues are in `state`, in the repositories `repoIds` or in all, from the repositories' counters. */
  private async issuesInState(state: OpenClosed, repoIds?: readonly number[]): Promise<number> {
    const inState =
      state === 'open' ? raw('num_issues - num_closed_issues + num_pulls - num_closed_pulls') : raw('num_closed_issues + num_closed_pulls');
    const row = await this.first(
      repoIds === undefined
        ? sql`SELECT SUM(${inState}) AS n FROM repos`
        : sql`SELECT SUM(${inState}) AS n FROM repos WHERE id IN ${this.in(repoIds)}`,
    );
    return num(row?.n ?? 0);
  }

  /**
   * Whether `rows` keyword matches newest first are found faster by walking the state's index
   * newest first and testing each row against the matches (the dialect's `keywordFilter`) than by
   * collecting all `matches` and sorting them. The walk reads about `rows × in scope / matches`
   * index entries, each testing about ten times cheaper than collecting and sorting a match; a rare
   * word is collected, since the walk would go to the end of the index for it
   * (docs/storage.md, "What the plans were measured to save"). Only for one state: across both, no index lists the rows newest first.
   */
  private async walkPaysOff(filter: ResolvedIssueFilter, matches: number, rows: number): Promise<boolean> {
    const state = filter.state ?? 'open';
    if (state === 'all') return false;
    return rows * (await this.issuesInState(state, filter.repoIds)) < WALK_ADVANTAGE * matches * matches;
  }
}
