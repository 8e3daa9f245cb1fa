import { useId } from 'react';
import type { Resource } from '../../../protocol/resources';
import { Button } from '../common/Button';
import { pageClient } from '../common/page-client';
import { VisibleText } from '../common/VisibleText';
import { filterResources, resourceDetail } from './context-picker';
import { SearchList } from './SearchList';

export interface ContextPickerProps {
  /** The active profile: only its servers' resources exist here. */
  readonly profile: string | undefined;
  readonly onPick: (resource: Resource) => void;
  readonly onClose: () => void;
}

/**
 * "Add context" (issue 12): the resources of the active profile's servers, searched by name, URI
 * and description, grouped by server. Picking one attaches it to the next message; nothing is
 * read until it is sent.
 */
export function ContextPicker({ profile, onPick, onClose }: ContextPickerProps) {
  const headingId = useId();
  return (
    <section
      className="sy-card sy-picker"
      aria-labelledby={headingId}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onClose();
        }
      }}
    >
      <div className="sy-picker__head">
        <h2 className="sy-card__title" id={headingId}>
          Add context
        </h2>
        <Button size="small" variant="quiet" onClick={onClose}>
          Close
        </Button>
      </div>
      <SearchList<Resource>
        noun="resources"
        listLabel="Resources"
        placeholder="Search by name or address"
        listKey={profile}
        list={async () => {
          const result = await pageClient().host(
            'resources/list',
            profile === undefined ? {} : { profile },
          );
          return { items: result.resources, problems: result.problems };
        }}
        // A server that starts, stops or changes its resources while the picker is open shows up.
        relistOn={(event) =>
          event.type === 'host' && event.method !== 'notifications/tools/changed'
        }
        filter={filterResources}
        keyOf={(resource) => `${resource.server}\u0000${resource.uri}`}
        render={(resource) => (
          <>
            <span className="sy-picker__name">
              <VisibleText text={resource.title ?? resource.name} />
            </span>
            <span className="sy-picker__detail">
              <VisibleText text={resourceDetail(resource)} />
            </span>
          </>
        )}
        onChoose={onPick}
      />
    </section>
  );
}
