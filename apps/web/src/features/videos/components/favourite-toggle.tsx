import { useTranslation } from 'react-i18next';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Star from '@mui/icons-material/Star';
import StarBorder from '@mui/icons-material/StarBorder';
import { errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { useSetFavourite } from '@/features/videos/api/video-actions';

/** The brand orange is too light on white for a control (WCAG 1.4.11): a darker shade there. */
const STAR_ON_LIGHT = '#A85A00';

/** The author's star on a case; drawn at once, put back if the server refuses. */
export function FavouriteToggle({ videoId, favourite, onMedia = false }: { videoId: string; favourite: boolean; onMedia?: boolean }) {
  const { t } = useTranslation('videos');
  const toast = useToast();
  const mutation = useSetFavourite();
  // Stays pending until the lists are fetched again, so the star never flips back meanwhile.
  const shown = mutation.isPending ? mutation.variables.favourite : favourite;
  const label = t(shown ? 'favourite.remove' : 'favourite.add');

  const toggle = () => {
    mutation.mutate({ id: videoId, favourite: !favourite }, { onError: (error) => toast('error', errorText(error)) });
  };

  return (
    <Tooltip title={label}>
      <IconButton
        data-testid="favourite-toggle"
        aria-label={label}
        onClick={toggle}
        disabled={mutation.isPending}
        sx={
          onMedia
            ? { color: '#fff', bgcolor: 'rgba(0,0,0,0.6)', '&:hover': { bgcolor: 'rgba(0,0,0,0.75)' }, '&.Mui-disabled': { color: '#fff' } }
            : {
                color: (theme) =>
                  shown ? (theme.palette.mode === 'light' ? STAR_ON_LIGHT : theme.palette.quaternary.main) : theme.palette.text.secondary,
              }
        }
      >
        {shown ? <Star sx={onMedia ? { color: 'quaternary.main' } : undefined} /> : <StarBorder />}
      </IconButton>
    </Tooltip>
  );
}
