import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { FIXTURES, curriculumV1, graphql, http, newTenant, sameTenant, type Caller } from '../kit.ts';
import { filePlatform, platformTest } from '../platform-test.ts';
import {
  casePackage,
  checksumOf,
  createComponent,
  createKc,
  expectProblem,
  importStandards,
  key,
  rowsOf,
} from './helpers.ts';

const it = platformTest();

const frameworks = `${curriculumV1}/standards-frameworks`;
const maps = `${curriculumV1}/standard-kc-maps`;

async function standardsRowCounts(tenantId: string): Promise<number[]> {
  const counts: number[] = [];
  for (const table of ['standards_frameworks', 'standards_releases', 'standard_kc_maps', 'knowledge_components']) {
    const result = await filePlatform().runtime.database.db.execute(
      sql`select count(*)::int as n from ${sql.raw(`curriculum.${table}`)} where tenant_id = ${tenantId}`,
    );
    counts.push(Number(rowsOf<{ n: number }>(result)[0].n));
  }
  return counts;
}

const retireKc = (caller: Caller, kc: { kc_id: string; etag: string }) =>
  http(filePlatform(), 'DELETE', `${curriculumV1}/kcs/${kc.kc_id}`, {
    token: caller.token,
    headers: { ...key(), 'if-match': kc.etag },
  });

describe('POST /standards-frameworks/import', () => {
  it('creates a frozen release with its maps, never a KC, and lists the framework with every filter', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller);
    const pkg = casePackage({ title: 'Beta', subject: ['Math', 'Fractions'] });
    const imported = await importStandards(platform, caller, pkg, [
      { standard_id: pkg.CFItems[0].identifier, kc_id: kc.kc_id, relationship: 'aligned' },
    ]);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body).toEqual({
      import_job_id: imported.body.release_id,
      status: 'completed',
      standards_framework_id: expect.any(String),
      framework_identifier: pkg.CFDocument.identifier,
      release_id: expect.any(String),
      checksum_sha256: checksumOf(pkg),
      item_count: 2,
      association_count: 2,
      map_count: 1,
      created_at: expect.any(String),
    });
    expect((await standardsRowCounts(caller.tenantId))[3]).toBe(1);
    const other = casePackage({ title: 'Alpha', subject: ['Reading'] });
    expect((await importStandards(platform, caller, other)).status).toBe(201);

    const listed = await http(platform, 'GET', frameworks, { token: caller.token });
    const beta = listed.body.data.find((row: any) => row.title === 'Beta');
    expect(beta).toEqual({
      standards_framework_id: imported.body.standards_framework_id,
      framework_identifier: pkg.CFDocument.identifier,
      title: 'Beta',
      creator: 'Example',
      subject_ids: ['Math', 'Fractions'],
      language: 'en',
      version: '1',
      case_version: '1.1',
      current_release_id: imported.body.release_id,
      current_checksum_sha256: checksumOf(pkg),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const titles = async (query: string) =>
      (await http(platform, 'GET', `${frameworks}?${query}`, { token: caller.token })).body.data.map(
        (row: any) => row.title,
      );
    expect(await titles(`frameworkId=${beta.standards_framework_id}`)).toEqual(['Beta']);
    expect(await titles(`frameworkId=${pkg.CFDocument.identifier}`)).toEqual(['Beta']);
    expect(await titles('subjectId=Reading')).toEqual(['Alpha']);
    expect(await titles('subjectId=Fractions')).toEqual(['Beta']);
    expect(await titles('sort=title')).toEqual(['Alpha', 'Beta']);
    expect(await titles('sort=title&order=desc')).toEqual(['Beta', 'Alpha']);
    expect(await titles('updated_since=2999-01-01T00:00:00Z')).toEqual([]);
    const first = await http(platform, 'GET', `${frameworks}?sort=title&limit=1`, { token: caller.token });
    const second = await http(platform, 'GET', `${frameworks}?sort=title&limit=1&cursor=${first.body.next_cursor}`, {
      token: caller.token,
    });
    expect([first.body.data[0].title, second.body.data[0].title, second.body.next_cursor]).toEqual([
      'Alpha',
      'Beta',
      null,
    ]);
    expect((await http(platform, 'GET', `${frameworks}?limit=0`, { token: caller.token })).body.data).toEqual([]);
    expectProblem(
      await http(platform, 'GET', `${frameworks}?sort=title&limit=1&cursor=${first.body.next_cursor}&subjectId=Math`, {
        token: caller.token,
      }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await http(platform, 'GET', `${frameworks}?sort=name`, { token: caller.token }),
      400,
      'curriculum:validation_failed',
    );

    expect(
      (await http(platform, 'GET', `${frameworks}/${pkg.CFDocument.identifier}`, { token: caller.token })).body,
    ).toEqual(beta);
    expectProblem(
      await http(platform, 'GET', `${frameworks}/${randomUUID()}`, { token: caller.token }),
      404,
      'curriculum:not_found',
    );
    const stranger = await newTenant(platform);
    expect((await http(platform, 'GET', frameworks, { token: stranger.token })).body.data).toEqual([]);
    expectProblem(
      await http(platform, 'GET', `${frameworks}/${beta.standards_framework_id}`, { token: stranger.token }),
      404,
      'curriculum:not_found',
    );
  });

  it('is addressed by checksum: the same package answers its release, and its maps are frozen with it', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const [a, b] = await Promise.all([1, 2].map(() => createKc(platform, caller)));
    const pkg = casePackage();
    const map = { standard_id: pkg.CFItems[1].identifier, kc_id: a.kc_id, relationship: 'partially_aligned' };
    const first = await importStandards(platform, caller, pkg, [map]);
    const again = await importStandards(platform, caller, pkg, [map]);
    expect([again.status, again.body]).toEqual([200, first.body]);
    const idempotencyKey = key();
    const keyed = await importStandards(platform, caller, pkg, [map], idempotencyKey);
    const replayed = await importStandards(platform, caller, pkg, [map], idempotencyKey);
    expect([keyed.body.release_id, replayed.headers.get('idempotency-replayed')]).toEqual([
      first.body.release_id,
      'true',
    ]);
    const otherMaps = await importStandards(platform, caller, pkg, [{ ...map, kc_id: b.kc_id }]);
    expectProblem(otherMaps, 409, 'curriculum:standards_release_frozen');
    expect(otherMaps.body.release_id).toBe(first.body.release_id);
    expect(await standardsRowCounts(caller.tenantId)).toEqual([1, 1, 1, 2]);
  });

  it('a new release of the framework advances it and makes its own maps the live ones', async ({ platform }) => {
    const caller = await newTenant(platform);
    const [a, b] = await Promise.all([1, 2].map(() => createKc(platform, caller)));
    const v1 = casePackage();
    const first = await importStandards(platform, caller, v1, [
      { standard_id: v1.CFItems[0].identifier, kc_id: a.kc_id, relationship: 'aligned' },
      { standard_id: v1.CFItems[1].identifier, kc_id: b.kc_id, relationship: 'related' },
    ]);
    const v2 = { ...v1, CFDocument: { ...v1.CFDocument, version: '2', title: 'Renamed' } };
    const second = await importStandards(platform, caller, v2, [
      { standard_id: v2.CFItems[0].identifier, kc_id: b.kc_id, relationship: 'aligned' },
    ]);
    expect(second.status).toBe(201);
    expect(second.body.standards_framework_id).toBe(first.body.standards_framework_id);
    expect(second.body.release_id).not.toBe(first.body.release_id);
    const framework = (
      await http(platform, 'GET', `${frameworks}/${first.body.standards_framework_id}`, { token: caller.token })
    ).body;
    expect([framework.title, framework.version, framework.current_release_id]).toEqual([
      'Renamed',
      '2',
      second.body.release_id,
    ]);
    const live = await http(platform, 'GET', maps, { token: caller.token });
    expect(live.body.data).toEqual([
      {
        map_id: expect.any(String),
        source_release_id: second.body.release_id,
        standard_id: v2.CFItems[0].identifier,
        kc_id: b.kc_id,
        relationship: 'aligned',
        status: 'active',
        updated_at: expect.any(String),
      },
    ]);
    const list = async (query: string) =>
      (await http(platform, 'GET', `${maps}?${query}`, { token: caller.token })).body.data.length;
    expect(await list(`kc_id=${b.kc_id}`)).toBe(1);
    expect(await list(`kc_id=${a.kc_id}`)).toBe(0);
    const superseded = await http(platform, 'GET', `${maps}?source_release_id=${first.body.release_id}`, {
      token: caller.token,
    });
    expect(
      superseded.body.data.map((map: { kc_id: string; status: string }) => [map.kc_id, map.status]).sort(),
    ).toEqual(
      [
        [a.kc_id, 'retired'],
        [b.kc_id, 'retired'],
      ].sort(),
    );
    expect(await list(`standard_id=${v2.CFItems[0].identifier}&relationship=aligned`)).toBe(1);
    expect(await list('relationship=related')).toBe(0);
    expect(await list('updated_since=2999-01-01T00:00:00Z')).toBe(0);
    expect(await list('limit=0')).toBe(0);
    expectProblem(
      await http(platform, 'GET', `${maps}?relationship=exact`, { token: caller.token }),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await http(platform, 'GET', `${maps}?cursor=forged`, { token: caller.token }),
      400,
      'curriculum:validation_failed',
    );
  });

  it('refuses a wrong checksum, foreign standards, unusable KCs, legacy packages and wrong scopes, writing nothing', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller);
    const retired = await createKc(platform, caller);
    expect((await retireKc(caller, retired)).status).toBe(200);
    const foreign = await createKc(platform, await newTenant(platform));
    const pkg = casePackage();
    const mapTo = (kcId: string, standardId: string = pkg.CFItems[0].identifier) => ({
      standard_id: standardId,
      kc_id: kcId,
      relationship: 'aligned',
    });
    const before = await standardsRowCounts(caller.tenantId);
    const post = (body: unknown, token = caller.token) =>
      http(platform, 'POST', `${frameworks}/import`, { token, body });

    const mismatch = await post({ checksum_sha256: checksumOf({ other: true }), package: pkg });
    expectProblem(mismatch, 422, 'curriculum:checksum_mismatch');
    expect(mismatch.body.fieldErrors[0].message).toContain(checksumOf(pkg));
    expectProblem(
      await importStandards(platform, caller, pkg, [mapTo(kc.kc_id, 'S9')]),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await importStandards(platform, caller, pkg, [mapTo(kc.kc_id), mapTo(kc.kc_id)]),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await importStandards(platform, caller, pkg, [{ ...mapTo(kc.kc_id), relationship: 'exact' }]),
      400,
      'curriculum:validation_failed',
    );
    expectProblem(
      await importStandards(platform, caller, pkg, [mapTo(kc.kc_id), mapTo(retired.kc_id, pkg.CFItems[1].identifier)]),
      422,
      'curriculum:kc_not_active',
    );
    expectProblem(
      await importStandards(platform, caller, pkg, [mapTo(foreign.kc_id)]),
      422,
      'curriculum:kc_not_active',
    );
    expectProblem(await importStandards(platform, caller, pkg, [mapTo(randomUUID())]), 422, 'curriculum:kc_not_active');
    const legacy = { ...pkg, CFDocument: { ...pkg.CFDocument, identifier: 'http://purl.org/ASN/resources/D10003FB' } };
    const refusedLegacy = await importStandards(platform, caller, legacy);
    expectProblem(refusedLegacy, 400, 'curriculum:validation_failed');
    expect(refusedLegacy.body.fieldErrors[0].field).toBe('package.CFDocument.identifier');
    expectProblem(await post({ checksum_sha256: 'ABC', package: pkg }), 400, 'curriculum:validation_failed');
    expectProblem(
      await post({ checksum_sha256: checksumOf(pkg), package: pkg, surprise: 1 }),
      400,
      'curriculum:validation_failed',
    );
    const writer = await sameTenant(platform, caller, { scopes: ['curriculum:read', 'curriculum:write'] });
    expectProblem(await importStandards(platform, writer, pkg), 403, 'curriculum:forbidden');
    expectProblem(
      await http(platform, 'POST', `${frameworks}/import`, { body: {} }),
      401,
      'curriculum:unauthenticated',
    );
    const importer = await sameTenant(platform, caller, { scopes: ['curriculum:import'] });
    expectProblem(await http(platform, 'GET', frameworks, { token: importer.token }), 403, 'curriculum:forbidden');
    expect(await standardsRowCounts(caller.tenantId)).toEqual(before);
    expect((await importStandards(platform, importer, pkg, [mapTo(kc.kc_id)])).status).toBe(201);
  });

  it('CASE identifiers are UUIDs: one in another case is the same node, twice in a package is refused', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller);
    const twinItems = casePackage();
    // as a package would write it; the builder types identifiers as lower-case uuids
    Object.assign(twinItems.CFItems[1], { identifier: twinItems.CFItems[0].identifier.toUpperCase() });
    const twinAssociations = casePackage();
    twinAssociations.CFAssociations[1].identifier = twinAssociations.CFAssociations[0].identifier;
    for (const [pkg, field] of [
      [twinItems, 'package.CFItems.1.identifier'],
      [twinAssociations, 'package.CFAssociations.1.identifier'],
    ] as const) {
      const refused = await importStandards(platform, caller, pkg);
      expectProblem(refused, 400, 'curriculum:validation_failed');
      expect(refused.body.fieldErrors.map((error: any) => error.field)).toEqual([field]);
    }
    const pkg = casePackage();
    const standard = pkg.CFItems[0].identifier;
    const map = { standard_id: standard.toUpperCase(), kc_id: kc.kc_id, relationship: 'aligned' };
    const imported = await importStandards(platform, caller, pkg, [map]);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const live = await http(platform, 'GET', `${maps}?standard_id=${standard}`, { token: caller.token });
    expect(live.body.data.map((row: any) => [row.standard_id, row.kc_id])).toEqual([[standard, kc.kc_id]]);
    // the filter names the standard as the import does, in any case
    const upper = await http(platform, 'GET', `${maps}?standard_id=${standard.toUpperCase()}`, { token: caller.token });
    expect(upper.body.data).toEqual(live.body.data);
    expect((await importStandards(platform, caller, pkg, [map])).status).toBe(200);
    expect(
      (await importStandards(platform, caller, pkg, [map, { ...map, standard_id: standard }])).body.fieldErrors,
    ).toEqual([{ field: 'standard_kc_maps.1', message: 'this standard and KC are mapped twice' }]);
  });

  it('imports every conforming CASE 1.1 shape and refuses a package that breaks a field or cardinality of CASE', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const identifier = randomUUID();
    const link = (title: string, id: string = randomUUID()) => ({
      title,
      identifier: id,
      uri: `https://example.org/${id}`,
    });
    const changed = '2026-02-03T04:05:06+00:00';
    const items = Array.from({ length: 300 }, (_, index) => ({
      identifier: randomUUID(),
      uri: `https://example.org/items/${index}`,
      fullStatement: `Énoncé ${index}: 分数と小数 🧮`,
      lastChangeDateTime: changed,
      ...(index % 2 === 0
        ? { CFItemType: 'Standard', educationLevel: ['KG', '01', 'grade_3'], humanCodingScheme: `M.${index}` }
        : {}),
      ...(index % 3 === 0 ? { notes: null, abbreviatedStatement: null, conceptKeywords: ['fractions'] } : {}),
    }));
    const types = ['isChildOf', 'isPeerOf', 'isPartOf', 'exactMatchOf', 'precedes', 'isRelatedTo', 'replacedBy'];
    const allTypes = [...types, 'exemplar', 'hasSkillLevel', 'isTranslationOf', 'ext:hasCourseCode'];
    const associations = allTypes.map((associationType, index) => ({
      identifier: randomUUID(),
      associationType,
      uri: `https://example.org/associations/${index}`,
      lastChangeDateTime: changed,
      originNodeURI: link('origin', items[index].identifier),
      // external nodes, a node missing from the package and one that is not a CASE framework
      destinationNodeURI:
        index % 2 === 0 ? link('elsewhere') : { ...link('course', `course-${index}`), targetType: 'ext:Course' },
      ...(index % 2 === 0 ? { sequenceNumber: index } : {}),
    }));
    const pkg = {
      CFDocument: {
        identifier,
        uri: `https://example.org/${identifier}`,
        creator: 'Ministère',
        title: 'Mathématiques — 数学',
        lastChangeDateTime: changed,
        caseVersion: '1.1',
        frameworkType: 'CourseCodes',
        subject: ['Math'],
        licenseURI: link('CC BY'),
      },
      CFItems: items,
      CFAssociations: associations,
      CFDefinitions: {
        CFSubjects: [{ ...link('Math'), hierarchyCode: '1', lastChangeDateTime: changed }],
        CFItemTypes: [
          { ...link('Standard'), description: 'A standard', hierarchyCode: '1', lastChangeDateTime: changed },
        ],
        CFConcepts: [],
        CFLicenses: [],
        CFAssociationGroupings: [],
      },
      CFRubrics: [{ ...link('Rubric'), lastChangeDateTime: changed }],
    };
    const imported = await importStandards(platform, caller, pkg);
    expect(imported.status, JSON.stringify(imported.body).slice(0, 500)).toBe(201);
    expect([imported.body.item_count, imported.body.association_count]).toEqual([300, allTypes.length]);
    const framework = await http(platform, 'GET', `${frameworks}/${identifier}`, { token: caller.token });
    expect([framework.body.title, framework.body.creator, framework.body.case_version]).toEqual([
      'Mathématiques — 数学',
      'Ministère',
      '1.1',
    ]);
    // CASE 1.0 lets educationLevel be one string and has no caseVersion
    const { caseVersion: _caseVersion, frameworkType: _frameworkType, ...caseOneDocument } = pkg.CFDocument;
    const caseOne = {
      CFDocument: { ...caseOneDocument, identifier: randomUUID() },
      CFItems: [{ ...items[0], educationLevel: '03' }],
    };
    expect((await importStandards(platform, caller, caseOne)).status).toBe(201);

    const breaking = (change: (copy: any) => void) => {
      const copy = structuredClone({ ...pkg, CFDocument: { ...pkg.CFDocument, identifier: randomUUID() } });
      change(copy);
      return copy;
    };
    const refusals: Array<[any, string]> = [
      [breaking((copy) => delete copy.CFItems[4].fullStatement), 'package.CFItems.4.fullStatement'],
      [breaking((copy) => (copy.CFItems[5].uri = null)), 'package.CFItems.5.uri'],
      [breaking((copy) => (copy.CFItems[6].identifier = 'M.6')), 'package.CFItems.6.identifier'],
      [breaking((copy) => delete copy.CFItems[7].lastChangeDateTime), 'package.CFItems.7.lastChangeDateTime'],
      [
        breaking((copy) => (copy.CFAssociations[1].associationType = 'isParentOf')),
        'package.CFAssociations.1.associationType',
      ],
      [breaking((copy) => delete copy.CFAssociations[2].uri), 'package.CFAssociations.2.uri'],
      [
        breaking((copy) => delete copy.CFAssociations[3].originNodeURI.uri),
        'package.CFAssociations.3.originNodeURI.uri',
      ],
      [breaking((copy) => (copy.CFAssociations[4].identifier = 'a-4')), 'package.CFAssociations.4.identifier'],
      [breaking((copy) => delete copy.CFDocument.creator), 'package.CFDocument.creator'],
      [breaking((copy) => delete copy.CFDocument.lastChangeDateTime), 'package.CFDocument.lastChangeDateTime'],
      [breaking((copy) => (copy.CFDocument.caseVersion = '2.0')), 'package.CFDocument.caseVersion'],
    ];
    for (const [refused, field] of refusals) {
      const reply = await importStandards(platform, caller, refused);
      expectProblem(reply, 400, 'curriculum:validation_failed');
      expect(reply.body.fieldErrors.map((error: any) => error.field)).toEqual([field]);
    }
    expect((await http(platform, 'GET', frameworks, { token: caller.token })).body.data).toHaveLength(2);
  });

  it('a CFDocument identifier in another case is a new release of the same framework, found in any case', async ({
    platform,
  }) => {
    const caller = await newTenant(platform);
    const identifier = 'd0000000-0000-0000-0000-00000000abcd';
    const first = await importStandards(platform, caller, casePackage({ identifier: identifier.toUpperCase() }));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const second = await importStandards(platform, caller, casePackage({ identifier, title: 'Renamed' }));
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(second.body.standards_framework_id).toBe(first.body.standards_framework_id);
    expect(second.body.framework_identifier).toBe(identifier.toUpperCase());
    const listed = await http(platform, 'GET', `${frameworks}?frameworkId=${identifier}`, { token: caller.token });
    expect(listed.body.data.map((row: any) => [row.title, row.current_release_id])).toEqual([
      ['Renamed', second.body.release_id],
    ]);
    const read = await http(platform, 'GET', `${frameworks}/${identifier}`, { token: caller.token });
    expect(read.body.standards_framework_id).toBe(first.body.standards_framework_id);
  });

  it('releases are frozen in the database', async ({ platform }) => {
    const caller = await newTenant(platform);
    await importStandards(platform, caller, casePackage());
    const db = platform.runtime.database.db;
    await expect(
      db.execute(sql`update curriculum.standards_releases set item_count = 0 where tenant_id = ${caller.tenantId}`),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`delete from curriculum.standards_releases where tenant_id = ${caller.tenantId}`),
    ).rejects.toThrow();
  });
});

describe('standards and the rest of the registry', () => {
  it('a KC with a live map cannot be retired; a newer release without the map frees it', async ({ platform }) => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller);
    const v1 = casePackage();
    await importStandards(platform, caller, v1, [
      { standard_id: v1.CFItems[0].identifier, kc_id: kc.kc_id, relationship: 'aligned' },
    ]);
    const blocked = await retireKc(caller, kc);
    expectProblem(blocked, 409, 'curriculum:kc_in_use');
    expect(blocked.body.active_references.standard_map_ids).toHaveLength(1);
    await importStandards(platform, caller, { ...v1, CFDocument: { ...v1.CFDocument, version: '2' } });
    expect((await retireKc(caller, kc)).status).toBe(200);
  });

  it('alpha.standards_framework_refs must name imported frameworks of the tenant', async ({ platform }) => {
    const caller = await newTenant(platform);
    const framework = (await importStandards(platform, caller, casePackage())).body;
    const course = await createComponent(platform, caller, {
      component_id: 'c',
      kind: 'course',
      alpha: { standards_framework_refs: [framework.standards_framework_id] },
    });
    expect(course.alpha.standards_framework_refs).toEqual([framework.standards_framework_id]);
    const unknown = await http(platform, 'POST', `${curriculumV1}/components`, {
      token: caller.token,
      body: {
        component_id: 'd',
        kind: 'course',
        alpha: { standards_framework_refs: [framework.standards_framework_id, randomUUID()] },
      },
    });
    expectProblem(unknown, 422, 'curriculum:standards_framework_unknown');
    expect(unknown.body.fieldErrors[0].field).toBe('alpha.standards_framework_refs.1');
    const stranger = await newTenant(platform);
    const foreign = await http(platform, 'POST', `${curriculumV1}/components`, {
      token: stranger.token,
      body: {
        component_id: 'c',
        kind: 'course',
        alpha: { standards_framework_refs: [framework.standards_framework_id] },
      },
    });
    expectProblem(foreign, 422, 'curriculum:standards_framework_unknown');
    const patched = await http(platform, 'PATCH', `${curriculumV1}/components/c`, {
      token: caller.token,
      headers: { ...key(), 'x-curriculum-if-match': course.etag },
      body: { alpha: { standards_framework_refs: [randomUUID()] } },
    });
    expectProblem(patched, 422, 'curriculum:standards_framework_unknown');
  });

  it('GraphQL reads frameworks, maps and the maps of a KC', async ({ platform }) => {
    const caller = await newTenant(platform);
    const kc = await createKc(platform, caller);
    const pkg = casePackage({ title: 'Graph' });
    const job = (
      await importStandards(platform, caller, pkg, [
        { standard_id: pkg.CFItems[0].identifier, kc_id: kc.kc_id, relationship: 'aligned' },
      ])
    ).body;
    const reply = await graphql(
      platform,
      `
        query ($kc: ID!, $id: String!) {
          standardsFrameworks(subjectId: "Math") {
            data {
              title
              currentReleaseId
              subjectIds
            }
            nextCursor
          }
          standardsFramework(frameworkId: $id) {
            standardsFrameworkId
          }
          standardKcMaps(kcId: $kc) {
            data {
              standardId
              relationship
              status
              kc {
                kcId
              }
            }
          }
          kc(kcId: $kc) {
            standardMaps {
              sourceReleaseId
            }
          }
        }
      `,
      { kc: kc.kc_id, id: pkg.CFDocument.identifier },
      caller.token,
    );
    expect(reply.body.errors).toBeUndefined();
    expect(reply.body.data).toEqual({
      standardsFrameworks: {
        data: [{ title: 'Graph', currentReleaseId: job.release_id, subjectIds: ['Math'] }],
        nextCursor: null,
      },
      standardsFramework: { standardsFrameworkId: job.standards_framework_id },
      standardKcMaps: {
        data: [
          { standardId: pkg.CFItems[0].identifier, relationship: 'aligned', status: 'active', kc: { kcId: kc.kc_id } },
        ],
      },
      kc: { standardMaps: [{ sourceReleaseId: job.release_id }] },
    });
  });
});

const CASE_FIXTURES = path.join(FIXTURES, 'case');

describe('real CASE packages', () => {
  const read = (file: string) => JSON.parse(fs.readFileSync(path.join(CASE_FIXTURES, file), 'utf8'));
  const packages = [
    ...fs
      .readdirSync(path.join(CASE_FIXTURES, 'opensalt'))
      .filter((file) => file.endsWith('.json'))
      .map((file) => `opensalt/${file}`),
    'compeito-opencase-export/opencase_round_trip_baseline.json',
  ];

  it.each(packages)('imports %s as a release with its items and associations counted', async (file) => {
    const caller = await newTenant(filePlatform());
    const pkg = read(file);
    const reply = await importStandards(filePlatform(), caller, pkg);
    expect(reply.status, JSON.stringify(reply.body).slice(0, 500)).toBe(201);
    expect([reply.body.item_count, reply.body.association_count]).toEqual([
      pkg.CFItems.length,
      pkg.CFAssociations.length,
    ]);
    expect((await importStandards(filePlatform(), caller, pkg)).status).toBe(200);
  });

  it('refuses the legacy pre-1.0 package with a field error', async ({ platform }) => {
    const caller = await newTenant(platform);
    const reply = await importStandards(platform, caller, read('opensalt/legacy-pre-1.0/math_cfs_sample.json'));
    expectProblem(reply, 400, 'curriculum:validation_failed');
    expect(reply.body.fieldErrors.map((error: { field: string }) => error.field)).toContain(
      'package.CFDocument.identifier',
    );
  });
});
