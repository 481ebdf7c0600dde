import type { FieldErrors, Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { fileTooBigMessage } from '@sutura/domain/errors';
import { PICTURE_MAX_BYTES } from '@sutura/domain/limits';
import { createVideoBody, NASA_TLX_DIMENSIONS, type NasaTlxDimension, type VideoKind } from '@sutura/domain/videos';
import { currentLanguage } from '@/lib/i18n';
import type { CreateVideoBody } from '@/features/videos/add/api/create-video';

export type YesNo = '' | 'yes' | 'no';

/**
 * What the inputs hold: text as typed, '' for a choice not made yet, null for a NASA-TLX scale
 * not rated yet. The shared schema turns it into the request body.
 */
export interface AddVideoFormValues {
  kind: VideoKind;
  surgeryId: string;
  organId: string;
  keyStepIds: string[];
  equipmentBrand: string;
  equipmentUsed: string;
  ageRange: string;
  patientSex: string;
  bmi: string;
  complication: YesNo;
  surgicalHistory: string;
  radiationHistory: YesNo;
  medicalBackground: string[];
  mainHand: string;
  surgeryDuration: string;
  /** YYYY-MM-DD from the date input, '' when not given. */
  operatedOn: string;
  messageToProctor: string;
  nasaTlx: Record<NasaTlxDimension, number | null>;
  pictures: File[];
  videoFile: File | null;
}

export const emptyValues = (): AddVideoFormValues => ({
  kind: 'video',
  surgeryId: '',
  organId: '',
  keyStepIds: [],
  equipmentBrand: '',
  equipmentUsed: '',
  ageRange: '',
  patientSex: '',
  bmi: '',
  complication: '',
  surgicalHistory: '',
  radiationHistory: '',
  medicalBackground: [],
  mainHand: '',
  surgeryDuration: '',
  operatedOn: '',
  messageToProctor: '',
  nasaTlx: Object.fromEntries(NASA_TLX_DIMENSIONS.map((d) => [d, null])) as Record<NasaTlxDimension, number | null>,
  pictures: [],
  videoFile: null,
});

const blank = (value: string) => (value.trim() === '' ? undefined : value);
const yesNo = (value: YesNo) => (value === 'yes' ? true : value === 'no' ? false : undefined);

/** The body as the schema reads it: a missing choice is left out, so it says 'This field is required'. */
export function toBodyInput(values: AddVideoFormValues) {
  return {
    kind: values.kind,
    surgeryId: blank(values.surgeryId),
    // No organ (a surgery outside urology) is said explicitly, so an edit can remove one.
    organId: blank(values.organId) ?? null,
    keyStepIds: values.keyStepIds,
    equipmentBrand: values.equipmentBrand,
    equipmentUsed: values.equipmentUsed,
    ageRange: blank(values.ageRange),
    patientSex: blank(values.patientSex),
    bmi: blank(values.bmi),
    complication: yesNo(values.complication),
    surgicalHistory: values.surgicalHistory,
    radiationHistory: yesNo(values.radiationHistory),
    medicalBackground: values.medicalBackground,
    mainHand: blank(values.mainHand),
    surgeryDuration: blank(values.surgeryDuration),
    // Optional: not given is said explicitly, so an edit can clear it.
    operatedOn: blank(values.operatedOn) ?? null,
    messageToProctor: values.messageToProctor,
    nasaTlx: Object.fromEntries(NASA_TLX_DIMENSIONS.map((d) => [d, values.nasaTlx[d] ?? undefined])),
  };
}

export const toBody = (values: AddVideoFormValues): CreateVideoBody => createVideoBody.parse(toBodyInput(values));

/** Translation keys of the upload namespace used as field messages (error codes are the others). */
export const PICTURES_REQUIRED = 'upload:pictures.required';

/** The checks of the files, which the schema of the body does not see. */
function fileErrors(values: AddVideoFormValues, maxVideoBytes: number): FieldErrors<AddVideoFormValues> {
  const errors: FieldErrors<AddVideoFormValues> = {};
  const lang = currentLanguage();
  if (values.kind === 'video') {
    if (!values.videoFile) errors.videoFile = { type: 'required', message: 'FIELD_REQUIRED' };
    else if (values.videoFile.size > maxVideoBytes) {
      errors.videoFile = { type: 'maxSize', message: fileTooBigMessage(values.videoFile.name, maxVideoBytes, lang) };
    }
  } else if (values.pictures.length === 0) errors.pictures = { type: 'required', message: PICTURES_REQUIRED };
  const tooBig = values.pictures.find((p) => p.size > PICTURE_MAX_BYTES);
  if (tooBig) errors.pictures = { type: 'maxSize', message: fileTooBigMessage(tooBig.name, PICTURE_MAX_BYTES, lang) };
  return errors;
}

/** The shared schema decides what is valid; the form keeps its own values. */
export function addVideoResolver(maxVideoBytes: number): Resolver<AddVideoFormValues> {
  const validate = zodResolver(createVideoBody);
  return async (values, context, options) => {
    const result = await validate(toBodyInput(values) as never, context, options as never);
    const errors = { ...(result.errors as FieldErrors<AddVideoFormValues>), ...fileErrors(values, maxVideoBytes) };
    return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
  };
}
