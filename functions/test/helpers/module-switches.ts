// Every test process reads the whole configuration, as every instance does: the modules' switch fragments are
// installed as the functions entry installs them (src/modules, once a test loads it, installs the same).
import { MODULE_SWITCHES } from '../../src/module-switches.generated';
import { installSwitches } from '../../src/platform/core/config/module-switches';

installSwitches(MODULE_SWITCHES);
