import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import FiberManualRecord from '@mui/icons-material/FiberManualRecord';
import Pause from '@mui/icons-material/Pause';
import PlayArrow from '@mui/icons-material/PlayArrow';
import Stop from '@mui/icons-material/Stop';
import { ANALYSIS_LIMITS, formatTimecode } from '@sutura/domain/analysis';
import { errorText } from '@/lib/http';
import { useDeleteVoice, useUploadVoice, type VoiceAdvice } from '@/features/analysis/api/analysis';

type RecorderState = 'idle' | 'recording' | 'paused';

/** The container MediaRecorder is asked for, the first this browser makes (Safari: MP4). */
function recordingType(): string | undefined {
  const types = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'];
  return types.find((type) => typeof MediaRecorder !== 'undefined' && MediaRecorder.isTypeSupported(type));
}

interface VoiceRecorderProps {
  videoId: string;
  voice: VoiceAdvice | null;
  fencingToken: number | null;
  readOnly: boolean;
}

/**
 * Voice advice recorded in the browser: a level meter while recording, pause and resume, a stop
 * at the contract's length limit; the recording is uploaded at once (the server transcodes it to
 * AAC) and played back from its signed URL. Recording again replaces it.
 */
export function VoiceRecorder({ videoId, voice, fencingToken, readOnly }: VoiceRecorderProps) {
  const { t } = useTranslation('analysis');
  const upload = useUploadVoice(videoId);
  const remove = useDeleteVoice(videoId);
  const [state, setState] = useState<RecorderState>('idle');
  const [elapsed, setElapsed] = useState(0);
  const [level, setLevel] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const session = useRef<{
    recorder: MediaRecorder;
    stream: MediaStream;
    audio: AudioContext;
    frame: number;
    ticker: ReturnType<typeof setInterval>;
  } | null>(null);

  const cleanUp = () => {
    const s = session.current;
    if (!s) return;
    cancelAnimationFrame(s.frame);
    clearInterval(s.ticker);
    s.stream.getTracks().forEach((track) => track.stop());
    void s.audio.close().catch(() => undefined);
    session.current = null;
    setLevel(0);
  };

  useEffect(() => cleanUp, []);

  const start = async () => {
    setError(null);
    if (fencingToken === null) return;
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      setError(t('voice.noMicrophone'));
      return;
    }
    const type = recordingType();
    const recorder = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => event.data.size > 0 && chunks.push(event.data);
    recorder.onstop = () => {
      cleanUp();
      setState('idle');
      const recording = new Blob(chunks, { type: recorder.mimeType || type || 'audio/webm' });
      if (recording.size === 0) return;
      upload.mutate({ recording, fencingToken }, { onError: (e) => setError(errorText(e)) });
    };
    // The meter reads the loudness of the microphone with an AnalyserNode, once a frame.
    const audio = new AudioContext();
    const analyser = audio.createAnalyser();
    analyser.fftSize = 512;
    audio.createMediaStreamSource(stream).connect(analyser);
    const samples = new Uint8Array(analyser.fftSize);
    const measure = () => {
      analyser.getByteTimeDomainData(samples);
      let peak = 0;
      for (const sample of samples) peak = Math.max(peak, Math.abs(sample - 128));
      setLevel(Math.min(100, (peak / 128) * 160));
      if (session.current) session.current.frame = requestAnimationFrame(measure);
    };
    let seconds = 0;
    setElapsed(0);
    const ticker = setInterval(() => {
      if (recorder.state !== 'recording') return;
      seconds += 1;
      setElapsed(seconds);
      // The server refuses longer recordings: the recording stops at the limit.
      if (seconds >= ANALYSIS_LIMITS.voiceMaxSeconds) recorder.stop();
    }, 1000);
    session.current = { recorder, stream, audio, frame: requestAnimationFrame(measure), ticker };
    recorder.start(1000);
    setState('recording');
  };

  const pause = () => {
    const recorder = session.current?.recorder;
    if (!recorder) return;
    if (recorder.state === 'recording') {
      recorder.pause();
      setState('paused');
    } else if (recorder.state === 'paused') {
      recorder.resume();
      setState('recording');
    }
  };

  const stop = () => session.current?.recorder.stop();

  const busy = upload.isPending || remove.isPending;
  const limit = formatTimecode(ANALYSIS_LIMITS.voiceMaxSeconds);

  return (
    <Box sx={{ display: 'grid', gap: 1.5 }} data-testid="voice-recorder" data-state={state}>
      {voice && state === 'idle' && (
        <Box sx={{ display: 'grid', gap: 0.5 }}>
          <audio controls src={voice.url} preload="metadata" data-testid="voice-player" style={{ width: '100%', maxWidth: 480 }}>
            <track kind="captions" />
          </audio>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('voice.length', { length: formatTimecode(voice.duration) })}
          </Typography>
        </Box>
      )}
      {state !== 'idle' && (
        <Box sx={{ display: 'grid', gap: 0.75, maxWidth: 480 }}>
          <Typography role="status" sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums' }} data-testid="voice-elapsed">
            {t(state === 'paused' ? 'voice.paused' : 'voice.recording', { elapsed: formatTimecode(elapsed), limit })}
          </Typography>
          <LinearProgress
            variant="determinate"
            value={state === 'paused' ? 0 : level}
            aria-label={t('voice.level')}
            data-testid="voice-level"
            sx={{ height: 10, borderRadius: 5 }}
          />
        </Box>
      )}
      {!readOnly && (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          {state === 'idle' ? (
            <Button
              variant="outlined"
              color="error"
              startIcon={upload.isPending ? <CircularProgress size={18} color="inherit" aria-hidden /> : <FiberManualRecord aria-hidden />}
              onClick={() => void start()}
              disabled={busy || fencingToken === null}
              data-testid="voice-record"
            >
              {upload.isPending ? t('voice.uploading') : t(voice ? 'voice.rerecord' : 'voice.record')}
            </Button>
          ) : (
            <>
              <Button
                variant="outlined"
                startIcon={state === 'paused' ? <PlayArrow aria-hidden /> : <Pause aria-hidden />}
                onClick={pause}
                data-testid="voice-pause"
              >
                {t(state === 'paused' ? 'voice.resume' : 'voice.pause')}
              </Button>
              <Button variant="contained" startIcon={<Stop aria-hidden />} onClick={stop} data-testid="voice-stop">
                {t('voice.stop')}
              </Button>
            </>
          )}
          {voice && state === 'idle' && fencingToken !== null && (
            <Button
              color="inherit"
              startIcon={remove.isPending ? <CircularProgress size={18} color="inherit" aria-hidden /> : <DeleteOutlined aria-hidden />}
              onClick={() => remove.mutate(fencingToken, { onError: (e) => setError(errorText(e)) })}
              disabled={busy}
              data-testid="voice-delete"
            >
              {t('voice.delete')}
            </Button>
          )}
        </Box>
      )}
      {!readOnly && (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('voice.help', { limit })}
        </Typography>
      )}
      {error && (
        <Alert severity="error" onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
    </Box>
  );
}
