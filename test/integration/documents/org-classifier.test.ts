// An organisation's own classifier: after people confirm types and the model is retrained from
// them, classification uses that model (its version is recorded on the document), and the
// built-in model stays in use for other organisations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, type Actor } from '../../helpers/app.js';
import { dbKinds } from '../../helpers/db.js';
import { createDocsApp, type DocsApp } from '../../helpers/docs-app.js';
import { createProject, upload, waitForDocument } from '../../helpers/pipeline.js';
import { classificationText, DEFAULT_MAX_CHARS } from '../../../src/pipeline/classify/index.js';
import { api, dataOf, invoiceText, LETTER_TEXT, RECEIPT_TEXT } from './fixtures.js';

describe.each(dbKinds())('organisation classifier (%s)', (kind) => {
  let t: DocsApp;
  let actor: Actor;
  let other: Actor;
  beforeAll(async () => {
    t = await createDocsApp({ kind });
    actor = await createActor(t);
    other = await createActor(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('documents are classified with the retrained model once there is one; other organisations keep the built-in one', async () => {
    const projectId = await createProject(t, actor, { classification_threshold: 0 });
    const files: [string, string][] = [
      ['inv.txt', invoiceText('org-1')],
      ['letter.txt', LETTER_TEXT],
      ['receipt.txt', RECEIPT_TEXT],
    ];
    const ids: string[] = [];
    for (const [name, text] of files)
      ids.push(dataOf(await upload(t, actor, projectId, name, Buffer.from(text)), 201).id);
    for (const id of ids) expect((await waitForDocument(t, id)).status).toBe('completed');
    const builtinVersion = dataOf(await api(t, actor, 'GET', `/documents/${ids[0]}`)).models.classifier_version;
    expect(builtinVersion).toBeTruthy();

    // A person confirms a type; the organisation's model is retrained from it.
    dataOf(await api(t, actor, 'PATCH', `/documents/${ids[1]}`, { classification: { type: 'letter' } }));
    const scope = { orgId: actor.orgId, environment: 'live' as const };
    const trained = await t.deps.documents.classifier.retrain(scope);
    expect(trained?.confirmed).toBe(1);
    expect(trained?.version).not.toBe(builtinVersion);

    dataOf(await api(t, actor, 'POST', `/documents/${ids[0]}/reprocess`, { stages: ['classify'] }), 202);
    const again = await waitForDocument(t, ids[0]);
    expect(again.status).toBe('completed');
    expect(dataOf(await api(t, actor, 'GET', `/documents/${ids[0]}`)).models.classifier_version).toBe(trained?.version);

    // Another organisation is untouched.
    const otherProject = await createProject(t, other, { classification_threshold: 0 });
    const theirs = dataOf(await upload(t, other, otherProject, 'inv.txt', Buffer.from(invoiceText('org-2'))), 201).id;
    expect((await waitForDocument(t, theirs)).status).toBe('completed');
    expect(dataOf(await api(t, other, 'GET', `/documents/${theirs}`)).models.classifier_version).toBe(builtinVersion);
    // Retraining runs four fits over the ~900 built-in samples in this test's own process:
    // several CPU seconds, far more on a machine shared with other test runs.
  }, 180_000);

  it('retraining reads a long confirmed document from start to end, as classification does', async () => {
    const projectId = await createProject(t, actor, { classification_threshold: 0 });
    const long = `${LETTER_TEXT}\n${'This page is intentionally left blank.\n'.repeat(2_000)}Closing remark LONGTAIL-MARKER.\n`;
    const id = dataOf(await upload(t, actor, projectId, 'long.txt', Buffer.from(long)), 201).id;
    expect((await waitForDocument(t, id)).status).toBe('completed');
    dataOf(await api(t, actor, 'PATCH', `/documents/${id}`, { classification: { type: 'letter' } }));
    const scope = { orgId: actor.orgId, environment: 'live' as const };
    const rows = await t.deps.documents.docs.confirmedTexts(scope, 10, (text) => classificationText(text));
    const mine = rows.find((r) => r.text.includes('LONGTAIL-MARKER'));
    expect(mine?.type).toBe('letter');
    expect(mine!.text.length).toBeLessThanOrEqual(DEFAULT_MAX_CHARS + 16);
    expect(mine!.text.startsWith(LETTER_TEXT.split('\n')[0])).toBe(true);
    // Another organisation's confirmed documents are not its training data.
    const theirs = await t.deps.documents.docs.confirmedTexts(
      { orgId: other.orgId, environment: 'live' },
      10,
      (text) => text,
    );
    expect(theirs.some((r) => r.text.includes('LONGTAIL-MARKER'))).toBe(false);
  });
});
