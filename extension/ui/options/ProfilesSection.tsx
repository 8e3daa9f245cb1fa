import { useCallback, useMemo, useState } from 'react';
import { DEFAULT_PROFILE_ID, type Profile } from '../../../protocol/profiles';
import type { PageClient } from '../../messaging/page-client';
import { Button } from '../common/Button';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import { useLive, useServers } from '../popup/use-host-data';
import { ProfileEditor } from './ProfileEditor';
import { fieldsFromProfile, NEW_PROFILE_FIELDS, profileSummary } from './profile-form';
import { SectionNotice, type Notice } from './SectionNotice';

type Editing = { readonly kind: 'new' } | { readonly kind: 'edit'; readonly id: string } | null;

interface ProfileList {
  readonly profiles: readonly Profile[];
  readonly defaultProfile: Profile;
}

const loadProfiles = async (client: PageClient): Promise<ProfileList> =>
  client.host('profiles/list', {});

// Profiles change only through this page (or the CLI); nothing the host pushes says so.
const never = (): boolean => false;

/** Per-site profiles (design D10): list, create, edit, delete. */
export function ProfilesSection() {
  const client = useMemo(() => pageClient(), []);
  const { data, error, reload } = useLive(loadProfiles, never);
  const servers = useServers();
  const [editing, setEditing] = useState<Editing>(null);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);

  const all = data === null ? [] : [data.defaultProfile, ...data.profiles];
  const serverNames = (servers.data ?? []).map((server) => server.name);

  const save = useCallback(
    async (profile: Profile) => {
      const result = await client.host('profiles/set', { profile });
      setEditing(null);
      setNotice({
        error: false,
        text: [`Saved ${result.profile.name}.`, ...result.warnings].join(' '),
      });
      await reload();
    },
    [client, reload],
  );

  const remove = (profile: Profile) => {
    setConfirmDelete(null);
    client
      .host('profiles/remove', { id: profile.id })
      .then(async () => {
        setNotice({ error: false, text: `Deleted ${profile.name}.` });
        await reload();
      })
      .catch((e: unknown) => {
        setNotice({ error: true, text: errorMessage(e) });
      });
  };

  return (
    <section className="op-card">
      <h2 id="profiles-heading">Profiles</h2>
      <p className="op-muted">
        A profile chooses the servers and tools the agent may use on the sites it matches. Sites no
        profile matches use the default profile. The side panel shows which one is active.
      </p>
      {error !== null && <p className="sy-error-text">{error}</p>}
      <SectionNotice notice={notice} />
      <ul className="op-profile-list">
        {all.map((profile) => (
          <li key={profile.id} className="op-profile">
            {editing?.kind === 'edit' && editing.id === profile.id ? (
              <ProfileEditor
                initial={fieldsFromProfile(profile)}
                isNew={false}
                takenIds={all.map((p) => p.id).filter((id) => id !== profile.id)}
                serverNames={serverNames}
                onSave={save}
                onCancel={() => {
                  setEditing(null);
                }}
              />
            ) : (
              <>
                <div className="op-profile-head">
                  <strong>{profile.name}</strong>
                  {profile.id === DEFAULT_PROFILE_ID && <span className="op-badge">default</span>}
                </div>
                <p className="op-muted op-wrap">{profileSummary(profile)}</p>
                {confirmDelete === profile.id ? (
                  <div className="op-actions" role="group" aria-label={`Delete ${profile.name}?`}>
                    <span>Delete {profile.name}?</span>
                    <Button
                      variant="danger"
                      onClick={() => {
                        remove(profile);
                      }}
                    >
                      Delete
                    </Button>
                    <Button
                      onClick={() => {
                        setConfirmDelete(null);
                      }}
                    >
                      Cancel
                    </Button>
                  </div>
                ) : (
                  <div className="op-actions">
                    <Button
                      aria-label={`Edit ${profile.name}`}
                      onClick={() => {
                        setNotice(null);
                        setEditing({ kind: 'edit', id: profile.id });
                      }}
                    >
                      Edit
                    </Button>
                    {profile.id !== DEFAULT_PROFILE_ID && (
                      <Button
                        aria-label={`Delete ${profile.name}`}
                        onClick={() => {
                          setConfirmDelete(profile.id);
                        }}
                      >
                        Delete
                      </Button>
                    )}
                  </div>
                )}
              </>
            )}
          </li>
        ))}
      </ul>
      {editing?.kind === 'new' ? (
        <ProfileEditor
          initial={NEW_PROFILE_FIELDS}
          isNew
          takenIds={all.map((p) => p.id)}
          serverNames={serverNames}
          onSave={save}
          onCancel={() => {
            setEditing(null);
          }}
        />
      ) : (
        <Button
          disabled={data === null}
          onClick={() => {
            setNotice(null);
            setEditing({ kind: 'new' });
          }}
        >
          New profile
        </Button>
      )}
    </section>
  );
}
