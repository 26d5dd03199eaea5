import { useState } from 'react';
import { PersonIcon } from '../../components/icons';
import { faceCropUrl } from './people.api';

interface FaceCropProps {
  faceId: string | null;
  className?: string;
}

/** A person's face, cut from one of their photos, in a circle; a silhouette when there is none or it fails. */
export function FaceCrop({ faceId, className = 'size-32' }: FaceCropProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const showImage = faceId !== null && failed !== faceId;
  return (
    <span className={`flex shrink-0 items-center justify-center overflow-hidden rounded-full bg-gray-100 ${className}`}>
      {showImage ? (
        <img
          src={faceCropUrl(faceId)}
          alt=""
          loading="lazy"
          decoding="async"
          draggable={false}
          onError={() => setFailed(faceId)}
          className="size-full object-cover"
          data-testid="face-crop"
        />
      ) : (
        <PersonIcon className="size-1/2 text-gray-400" />
      )}
    </span>
  );
}
