// `bottleneck/light.js` is Bottleneck without its Redis clustering (what Octokit's throttling plugin uses);
// it has the same API as the full package, whose types it lacks.
declare module 'bottleneck/light.js' {
  import Bottleneck from 'bottleneck'
  export default Bottleneck
}
