import { useRef, useState, type DragEvent } from 'react';
import { uploadDocument } from '../../lib/client';
import { errorText, useInvalidate } from '../../lib/queries';
import { Link } from '../../lib/router';
import { bytes } from '../../lib/format';
import { Badge, Button } from '../../components/ui';
import type { DocumentRow, Project } from '../../lib/types';

interface Item {
  key: string;
  file: File;
  loaded: number;
  state: 'queued' | 'uploading' | 'done' | 'duplicate' | 'error';
  doc?: DocumentRow;
  error?: string;
}

const PARALLEL = 2;

/**
 * Drag-and-drop (or pick) files into a project. Each file is its own request with its own
 * progress; two go at a time.
 */
export function UploadZone({
  projects,
  defaultProject,
  disabledReason,
}: {
  projects: Project[];
  defaultProject?: string;
  disabledReason?: string;
}) {
  const [projectId, setProjectId] = useState(defaultProject ?? '');
  const [items, setItems] = useState<Item[]>([]);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const invalidate = useInvalidate();
  const project = projectId || projects[0]?.id || '';
  const disabled = !!disabledReason || !project;

  const update = (key: string, patch: Partial<Item>) =>
    setItems((xs) => xs.map((x) => (x.key === key ? { ...x, ...patch } : x)));

  const start = (files: File[]) => {
    if (disabled || !files.length) return;
    const added: Item[] = files.map((file, i) => ({
      key: `${Date.now()}-${i}-${file.name}`,
      file,
      loaded: 0,
      state: 'queued',
    }));
    setItems((xs) => [...added, ...xs].slice(0, 200));
    const queue = [...added];
    const worker = async () => {
      for (let it = queue.shift(); it; it = queue.shift()) {
        update(it.key, { state: 'uploading' });
        const form = new FormData();
        form.append('project_id', project);
        form.append('file', it.file, it.file.name);
        try {
          const doc = await uploadDocument(form, (loaded) => update(it!.key, { loaded }));
          update(it.key, { state: doc.duplicate ? 'duplicate' : 'done', loaded: it.file.size, doc });
        } catch (err) {
          update(it.key, { state: 'error', error: errorText(err) });
        }
      }
    };
    void Promise.all(Array.from({ length: Math.min(PARALLEL, added.length) }, worker)).then(() =>
      invalidate('/documents', '/projects'),
    );
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    start([...e.dataTransfer.files]);
  };
  return (
    <section
      className={`dropzone${over ? ' over' : ''}`}
      aria-label="Upload documents"
      onDragOver={(e) => {
        e.preventDefault();
        if (!disabled) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      data-testid="dropzone">
      <div className="row" style={{ justifyContent: 'center' }}>
        <label htmlFor="upload-project" className="small">
          Upload into
        </label>
        <select
          id="upload-project"
          value={project}
          onChange={(e) => setProjectId(e.target.value)}
          disabled={!projects.length}>
          {projects.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
        <Button
          onClick={() => input.current?.click()}
          disabled={disabled}
          aria-describedby={disabledReason ? 'upload-reason' : undefined}>
          Choose files…
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          aria-label="Files to upload"
          onChange={(e) => {
            start([...(e.target.files ?? [])]);
            e.target.value = '';
          }}
        />
      </div>
      <p className="muted small" id="upload-reason">
        {disabledReason ??
          (projects.length ? (
            'or drop files anywhere in this box'
          ) : (
            <>
              Create a <Link to="/projects">project</Link> first.
            </>
          ))}
      </p>
      {items.length ? (
        <ul className="upload-list" aria-label="Uploads">
          {items.map((it) => (
            <li key={it.key}>
              <span className="name" title={it.file.name}>
                {it.doc ? <Link to={`/documents/${it.doc.id}`}>{it.file.name}</Link> : it.file.name}{' '}
                <span className="muted small">{bytes(it.file.size)}</span>
              </span>
              <progress
                value={it.state === 'done' || it.state === 'duplicate' ? 1 : it.loaded}
                max={it.state === 'done' || it.state === 'duplicate' ? 1 : Math.max(it.file.size, 1)}
                aria-label={`Upload of ${it.file.name}`}
              />
              <span className="small">
                {it.state === 'queued' ? (
                  <Badge>queued</Badge>
                ) : it.state === 'uploading' ? (
                  <Badge tone="info">{Math.round((it.loaded / Math.max(it.file.size, 1)) * 100)}%</Badge>
                ) : it.state === 'done' ? (
                  <Badge tone="good">uploaded</Badge>
                ) : it.state === 'duplicate' ? (
                  <Badge tone="warn" title="The project already has a file with these bytes">
                    duplicate
                  </Badge>
                ) : (
                  <span className="field-error">{it.error}</span>
                )}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
