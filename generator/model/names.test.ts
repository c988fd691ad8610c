/**
 * @module
 * Name helpers: the identifiers users see in generated code come from here.
 */
import { describe, expect, it } from 'vitest';
import { camelCase, pascalCase, protoJsonName, safeIdentifier, safePropertyName, safeVariableName, UniqueNames } from './names.js';

describe('names', () => {
  it('camelCases wire names, keeping inner capitals', () => {
    expect(
      ['priority_repo_id', 'X-Request-Id', 'issueGetIssue', 'GetBIOSSerialNumber', 'get /repos/ owner /issues', '__x'].map(camelCase),
    ).toEqual(['priorityRepoId', 'xRequestId', 'issueGetIssue', 'getBIOSSerialNumber', 'getReposOwnerIssues', 'x']);
  });

  it('PascalCases tags and titles', () => {
    expect(['issue', 'Gitea API', 'user-settings', 'v1 beta'].map(pascalCase)).toEqual(['Issue', 'GiteaAPI', 'UserSettings', 'V1Beta']);
  });

  it('transliterates Latin letters with diacritics and keeps letters of other scripts', () => {
    expect(['Über-Admin', 'straße', 'Ærø øl', 'café_crème', 'Заказы', '注文 list'].map(pascalCase)).toEqual([
      'UberAdmin',
      'Strasse',
      'AEroOl',
      'CafeCreme',
      'Заказы',
      '注文List',
    ]);
    expect(['prénom', 'Łódź-id'].map(camelCase)).toEqual(['prenom', 'lodzId']);
    expect(['Über', 'Заказ.Статус', '٣x'].map(safeIdentifier)).toEqual(['Uber', 'Заказ_Статус', '_٣x']);
  });

  it("computes protoc's default json_name", () => {
    expect(['display_name', 'Foo_bar', 'a__b', 'x1_y'].map(protoJsonName)).toEqual(['displayName', 'FooBar', 'aB', 'x1Y']);
  });

  it('escapes reserved words and invalid characters', () => {
    expect(['Object', 'in', 'type', 'issue.Label', '1st', ''].map(safeIdentifier)).toEqual([
      'Object$',
      'in$',
      'type$',
      'issue_Label',
      '_1st',
      '_',
    ]);
    expect(['type', 'in', 'string', 'Promise'].map(safeVariableName)).toEqual(['type', 'in$', 'string', 'Promise$']);
    expect(['class', 'hamster-like', '2x'].map(safePropertyName)).toEqual(['class', 'hamster_like', '_2x']);
  });

  it('hands out unique names', () => {
    const names = new UniqueNames(['body']);
    expect(['body', 'id', 'id', 'id2'].map((n) => names.take(n))).toEqual(['body2', 'id', 'id2', 'id22']);
  });
});
