import { useSearchParams } from 'react-router';
import { MyMoments, isMyMomentsList } from './MyMoments';

/** /library/moments: the library's Moments tab (all, favourites, clipped). */
export function LibraryMomentsTab() {
  const [params, setParams] = useSearchParams();
  const list = params.get('list');
  return (
    <MyMoments
      list={isMyMomentsList(list) ? list : 'all'}
      onListChange={(next) =>
        setParams(
          (current) => {
            const updated = new URLSearchParams(current);
            if (next === 'all') updated.delete('list');
            else updated.set('list', next);
            return updated;
          },
          { replace: true },
        )
      }
    />
  );
}
