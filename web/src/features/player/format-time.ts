// The clock is shared with the admin screens; it lives in components/.
export { formatTime } from '../../components/format-time';
