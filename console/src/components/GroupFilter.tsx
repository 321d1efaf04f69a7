// The group filter of the policy and flow lists: a box that finds groups by
// name on the server as you type, so that any group of an organization can
// be chosen however many it has.
import { useEffect, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { GroupDocument, GroupsDocument } from '@verdict/client';
import { errorMessage } from '../api';
import type { Api } from '../api';

/** How many groups the list under the box offers at once. */
const OFFERED = 8;

interface Choice {
  /** '' for every group. */
  id: string;
  name: string;
}

const allGroups: Choice = { id: '', name: 'All groups' };

/**
 * A combobox naming the chosen group (groupId, '' for none): a click, an
 * arrow key or typing lists up to OFFERED groups whose name contains what
 * was typed, and picking one, by click or Enter, calls onPick. Leaving the
 * box without picking puts the chosen group's name back.
 */
export function GroupFilter({ api, id, groupId, onPick }: { api: Api; id: string; groupId: string; onPick: (groupId: string) => void }) {
  // The names of the groups picked or looked up, by id.
  const [names, setNames] = useState(() => new Map<string, string>());
  // What was typed since the list opened; null until something is.
  const [typed, setTyped] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  // null while the search runs.
  const [found, setFound] = useState<{ groups: Choice[]; more: boolean } | null>(null);
  const [error, setError] = useState('');
  const [active, setActive] = useState(0);

  const remember = (group: Choice) => setNames((n) => new Map(n).set(group.id, group.name));

  // A group the address chose, rather than this box, is named by asking the server.
  useEffect(() => {
    if (!groupId || names.has(groupId)) return;
    let live = true;
    api.request(GroupDocument, { id: groupId }).then(
      (r) => live && remember({ id: groupId, name: r.group?.name ?? 'Group not found' }),
      // The list's own load shows why the group could not be read.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api, groupId, names]);

  const query = typed?.trim() ?? '';
  useEffect(() => {
    if (!open) return;
    let live = true;
    // The matches of an earlier text are not offered for this one, where Enter would pick them.
    setFound(null);
    setError('');
    const t = window.setTimeout(() => {
      api.request(GroupsDocument, { first: OFFERED, query: query || null }).then(
        (r) => {
          if (!live) return;
          setFound({ groups: r.groups.edges.map((e) => ({ id: e.node.id, name: e.node.name })), more: r.groups.pageInfo.hasNextPage });
          setActive(0);
        },
        (err: unknown) => live && setError(errorMessage(err)),
      );
    }, 200);
    return () => {
      live = false;
      window.clearTimeout(t);
    };
  }, [api, open, query]);

  const choices = found ? [...(query ? [] : [allGroups]), ...found.groups] : [];
  const current = open ? choices[active] : undefined;
  const close = () => {
    setOpen(false);
    setTyped(null);
  };
  const pick = (choice: Choice) => {
    if (choice.id) remember(choice);
    close();
    onPick(choice.id);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) setOpen(true);
      else setActive((a) => Math.max(0, Math.min(choices.length - 1, a + (e.key === 'ArrowDown' ? 1 : -1))));
    } else if (e.key === 'Enter' && current) {
      e.preventDefault();
      pick(current);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      close();
    }
  };

  const listId = `${id}-groups`;
  const optionId = (i: number) => `${listId}-${i}`;
  const shown = groupId ? names.get(groupId) ?? '' : '';
  return (
    <div className="combo">
      <input
        id={id}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-activedescendant={current ? optionId(active) : undefined}
        autoComplete="off"
        value={typed ?? shown}
        // While a chosen group's name loads, the box must not read All groups.
        placeholder={groupId ? undefined : 'All groups'}
        onChange={(e) => {
          setTyped(e.target.value);
          setOpen(true);
        }}
        onClick={() => setOpen(true)}
        onKeyDown={onKeyDown}
        onBlur={close}
      />
      {open && (
        <div className="combo-popup">
          <ul role="listbox" id={listId} aria-label="Groups">
            {choices.map((c, i) => (
              <li
                key={c.id}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                className={i === active ? 'combo-active' : undefined}
                // Keeps the focus in the box, which closes the list when it loses it.
                onMouseDown={(e) => e.preventDefault()}
                onMouseMove={() => setActive(i)}
                onClick={() => pick(c)}
              >
                {c.name}
              </li>
            ))}
          </ul>
          {error && <p className="field-error">{error}</p>}
          {found === null && !error && <p className="muted small">Searching…</p>}
          {found && query && found.groups.length === 0 && <p className="muted small">No group matches.</p>}
          {found?.more && (
            <p className="muted small">{query ? 'More groups match: type more of the name.' : 'More groups: type part of a name to find them.'}</p>
          )}
        </div>
      )}
    </div>
  );
}
