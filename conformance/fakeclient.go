package conformance

import (
	"errors"
	"fmt"
	"reflect"
	"unsafe"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/meta/testrestmapper"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/managedfields"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoapplyconfigurations "k8s.io/client-go/applyconfigurations"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	clienttesting "k8s.io/client-go/testing"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	kueuev1beta1 "sigs.k8s.io/kueue/apis/kueue/v1beta1"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	utiltesting "sigs.k8s.io/kueue/pkg/util/testing"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// newClientBuilder is Kueue's test client builder
// (utiltesting.NewClientBuilder: its scheme and field indexes) with the
// object tracker controller-runtime's fake client builds by default
// (fake.ClientBuilder.Build: client-go's field-managed tracker over the
// same scheme, decoder and type converters), made once here so that its
// REST mapper is made once too. client-go's tracker builds a static REST
// mapper of the whole scheme (testrestmapper.TestOnlyStaticRESTMapper) on
// every Create, Update and Patch only to look up one kind; that was half
// of the harness's CPU time, and some of it inside Kueue's timed calls.
// The mapper is a pure function of the scheme, which does not change
// after this, so the one made here answers every lookup as a new one
// would.
func newClientBuilder() *fake.ClientBuilder {
	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(kueue.AddToScheme(scheme))
	utilruntime.Must(kueuev1beta1.AddToScheme(scheme))
	clientGoScheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(clientGoScheme))
	tracker := clienttesting.NewFieldManagedObjectTracker(
		scheme,
		serializer.NewCodecFactory(scheme).UniversalDecoder(),
		typeConverters{
			clientgoapplyconfigurations.NewTypeConverter(clientGoScheme),
			managedfields.NewDeducedTypeConverter(),
		},
	)
	mapper := testrestmapper.TestOnlyStaticRESTMapper(scheme)
	if err := setUnexported(tracker, "mapper", func() meta.RESTMapper { return mapper }); err != nil {
		panic(fmt.Sprintf("conformance: client-go's field-managed object tracker changed: %v", err))
	}
	return utiltesting.NewClientBuilder().WithScheme(scheme).WithObjectTracker(tracker)
}

// setUnexported sets the unexported field name of the struct *p points to
// to v, which must have the field's exact type.
func setUnexported(p any, name string, v any) error {
	rv := reflect.ValueOf(p)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("%T is not a pointer to a struct", p)
	}
	f := rv.Elem().FieldByName(name)
	if !f.IsValid() {
		return fmt.Errorf("%T has no field %s", p, name)
	}
	if f.Type() != reflect.TypeOf(v) {
		return fmt.Errorf("%T's field %s is a %v, not a %T", p, name, f.Type(), v)
	}
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(v))
	return nil
}

// typeConverters tries each converter in turn, as controller-runtime's
// fake client does with its default ones (its unexported
// multiTypeConverter): client-go's for built-in types, the deduced one for
// Kueue's.
type typeConverters []managedfields.TypeConverter

func (m typeConverters) ObjectToTyped(r runtime.Object, o ...typed.ValidationOptions) (*typed.TypedValue, error) {
	var errs []error
	for _, u := range m {
		res, err := u.ObjectToTyped(r, o...)
		if err == nil {
			return res, nil
		}
		errs = append(errs, err)
	}
	return nil, fmt.Errorf("failed to convert Object to TypedValue: %w", errors.Join(errs...))
}

func (m typeConverters) TypedToObject(v *typed.TypedValue) (runtime.Object, error) {
	var errs []error
	for _, u := range m {
		res, err := u.TypedToObject(v)
		if err == nil {
			return res, nil
		}
		errs = append(errs, err)
	}
	return nil, fmt.Errorf("failed to convert TypedValue to Object: %w", errors.Join(errs...))
}
